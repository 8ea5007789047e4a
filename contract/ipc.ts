/** IPC channel names shared by the main process and the preload script. */
export const GET_CONNECTION_CHANNEL = 'labeldesk:get-connection';
