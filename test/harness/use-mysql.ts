/** Setup file of the `e2e-mysql` Jest project: the same e2e suite, each file on a MySQL / MariaDB database of its own. */
process.env.TEST_DATABASE = 'mysql';
