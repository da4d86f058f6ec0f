/**
 * The admin API's paths: its answers hold keys, e-mails and usage that no
 * cache may keep, so every answer of its routes carries `Cache-Control: no-store`,
 * set before anything runs (a refused token's 401 carries it too; fastify-hooks.ts).
 * The one mechanism for the admin API: its controllers declare no `@Header` of their own.
 */
export const ADMIN_PATH_PREFIX = '/admin/';
