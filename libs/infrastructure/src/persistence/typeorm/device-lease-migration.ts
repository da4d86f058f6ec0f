/**
 * The lease job's search (CONTRACT 23): devices still active, the longest unseen first, by
 * deactivation and last sighting, so each round reads only the lapsed ones however many devices
 * there are. Name, table and columns, one list for the three databases' migration 1765700000000.
 */
export const DEVICE_LEASE_INDEXES: ReadonlyArray<readonly [name: string, table: string, columns: string]> = [
  ['ix_devices_lease', 'devices', 'deactivated_at, last_seen_at'],
];
