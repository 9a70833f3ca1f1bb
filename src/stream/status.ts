// Status objects of the feed's control frames, with the wording clients and docs expect. Each
// is sent as a frame of its own (clients read the status at index 0).

export type StatusName =
  | 'connected' | 'auth_success' | 'auth_failed' | 'auth_timeout' | 'success' | 'auth_required'
  | 'error' | 'max_connections' | 'slow_consumer' | 'force_disconnect';

export interface StatusEvent {
  ev: 'status';
  status: StatusName;
  message: string;
}

export function status(name: StatusName, message: string): StatusEvent {
  return { ev: 'status', status: name, message };
}

export const MESSAGES = {
  connected: 'Connected Successfully',
  authSuccess: 'authenticated',
  authFailed: 'authentication failed',
  authTimeout: 'No authentication request received.',
  authRequired: 'authentication required',
  maxConnections:
    'Maximum number of websocket connections exceeded. You have reached the connection limit for your account. Please contact support to increase your limit.',
  slowConsumer: 'Slow consumer: the server-side buffer for this connection is full.',
  shutdown: 'Connection closed by the server.',
  invalidJson: 'invalid JSON',
  paramsNotString: 'params must be a string',
} as const;

/** Close codes: 1008 ends a session the client should not simply retry; 1012 asks it to reconnect. */
export const CLOSE_POLICY = 1008;
export const CLOSE_RESTART = 1012;

export function statusFrame(...items: StatusEvent[]): string {
  return JSON.stringify(items);
}
