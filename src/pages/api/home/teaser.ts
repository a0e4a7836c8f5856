/** GET /api/home/teaser → the Naphtha trend's shape and direction, no figures (public: the home page shows it to everyone). */
export { homeTeaser as GET } from '../../../server/api/endpoints.ts';
