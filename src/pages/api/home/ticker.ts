/**
 * GET /api/home/ticker → the key series for everyone: latest value and change for visitors whose
 * plan opens the data, the name and direction of the latest move for everyone else.
 */
export { homeTicker as GET } from '../../../server/api/endpoints.ts';
