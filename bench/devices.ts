/** How many activations are in flight at once while the setup activates a device per key. */
const ACTIVATIONS_IN_FLIGHT = 16;

/** The fingerprint of the bench's device of the key at `index`: distinct per key, 16 to 256 characters as CONTRACT 23 asks. */
export function benchFingerprint(index: number): string {
  return `bench-device-${String(index).padStart(12, '0')}`;
}

/**
 * The setup of `--device-fingerprint`: one device activated per key through the service's own
 * `POST /v1/devices/activate` (every tier has a seat for one), so that validate can name it.
 * Answers each key's fingerprint; throws when an activation is not answered 201 or 200.
 */
export async function activateDevices(
  baseUrl: string,
  keys: readonly string[],
  out: (line: string) => void,
): Promise<ReadonlyMap<string, string>> {
  const started = Date.now();
  const fingerprints = new Map(keys.map((key, index) => [key, benchFingerprint(index)]));
  let next = 0;
  const worker = async (): Promise<void> => {
    while (next < keys.length) {
      const key = keys[next++];
      const res = await fetch(`${baseUrl}/v1/devices/activate`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ api_key: key, fingerprint: fingerprints.get(key), name: 'bench', platform: 'linux-x64' }),
      });
      await res.arrayBuffer();
      if (res.status !== 201 && res.status !== 200) throw new Error(`device activation answered ${res.status}`);
    }
  };
  await Promise.all(Array.from({ length: ACTIVATIONS_IN_FLIGHT }, worker));
  const seconds = (Date.now() - started) / 1000;
  out(`devices: ${keys.length} activated in ${seconds.toFixed(1)} s; validate names each key's device (X-Device-Fingerprint)`);
  return fingerprints;
}
