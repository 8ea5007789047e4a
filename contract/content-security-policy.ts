/**
 * The UI's Content-Security-Policy, for every place that applies it: the service's response
 * header (http/app.ts), the desktop window's header for the service's responses
 * (main/window-policy.ts) and the meta tag of the built page (renderer/vite.config.ts). The UI
 * runs only its own files: no inline script, no eval (React's style prop goes through the CSSOM,
 * which the policy allows), no plugins, no forms posting elsewhere.
 */
const DIRECTIVES = [
  "default-src 'none'",
  "script-src 'self'",
  "style-src 'self'",
  "img-src 'self' data:",
  "font-src 'self'",
  // Every page is served by the service it talks to: the desktop window loads the service's URL,
  // never a file (and the bridge answers no file page), so 'self' is the service.
  "connect-src 'self'",
  "base-uri 'none'",
  "form-action 'none'",
];

/**
 * The built page's meta tag. frame-ancestors stays out: browsers ignore it in a meta tag and
 * log an error for it.
 */
export const UI_CONTENT_SECURITY_POLICY_META = DIRECTIVES.join('; ');

/** The response header: the meta tag's directives, and no page may frame the UI. */
export const UI_CONTENT_SECURITY_POLICY = [...DIRECTIVES, "frame-ancestors 'none'"].join('; ');
