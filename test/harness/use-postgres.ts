/** Setup file of the `e2e-pg` Jest project: the same e2e suite, each file on a PostgreSQL database of its own. */
process.env.TEST_DATABASE = 'postgres';
