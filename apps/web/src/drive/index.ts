/**
 * Drive a server from the dashboard: forms from a tool's inputSchema (and a prompt's arguments,
 * a resource template's variables), sent through replay's machinery, and the server's sampling,
 * elicitation and roots requests answered by the user.
 */
export { DriveButton, DriveHost } from './drive-host.js';
