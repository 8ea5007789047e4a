/**
 * A key and a self-signed certificate for an SMTP relay on 127.0.0.1 (and localhost), for the
 * TLS tests only: valid from 2020 to 2120, so the tests need no tool to make one. Nothing but a
 * test relay on loopback uses them, and nothing trusts the certificate unless a test says so.
 */
export const TEST_RELAY_KEY = `-----BEGIN PRIVATE KEY-----
MIGHAgEAMBMGByqGSM49AgEGCCqGSM49AwEHBG0wawIBAQQgF3yACagsLqqV5zl9
7QHYx0KVjS6wHek5sTqIPMxNgRehRANCAASlRHf1q5J7d8gZN2ykT8yD/Llmh6G7
dDTY9h5bRMuAbg/HixfwIGPR6mXuFKM6KlfcnijxxuqKTlP5HcjeZirw
-----END PRIVATE KEY-----
`;

export const TEST_RELAY_CERT = `-----BEGIN CERTIFICATE-----
MIIBfDCCASOgAwIBAgIBATAKBggqhkjOPQQDAjAfMR0wGwYDVQQDDBRMYWJlbERl
c2sgdGVzdCByZWxheTAgFw0yMDAxMDEwMDAwMDBaGA8yMTIwMDEwMTAwMDAwMFow
HzEdMBsGA1UEAwwUTGFiZWxEZXNrIHRlc3QgcmVsYXkwWTATBgcqhkjOPQIBBggq
hkjOPQMBBwNCAASlRHf1q5J7d8gZN2ykT8yD/Llmh6G7dDTY9h5bRMuAbg/Hixfw
IGPR6mXuFKM6KlfcnijxxuqKTlP5HcjeZirwo04wTDAPBgNVHRMBAf8EBTADAQH/
MB0GA1UdDgQWBBTalaZkSyDftFwaxhGv0HvWBJeUgTAaBgNVHREEEzARhwR/AAAB
gglsb2NhbGhvc3QwCgYIKoZIzj0EAwIDRwAwRAIgbLCLxDaYPSARgIbojbmRf5fF
4tojym4J3QpAKOm9f8sCIGpiIeyBn/DzyWu5JCYiGo7cKRh/H0MV7UhkVaaZUuXg
-----END CERTIFICATE-----
`;
