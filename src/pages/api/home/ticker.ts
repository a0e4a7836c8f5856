/** GET /api/home/ticker → latest value and change of the key series (full access: subscribers). */
export { homeTicker as GET } from '../../../server/api/endpoints.ts';
