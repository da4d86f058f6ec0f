import { DomainError } from '../shared/domain-error';

/** Every seat of the license is held (CONTRACT 23): the answer carries the limit and the active count. */
export class DeviceLimitReachedError extends DomainError {
  readonly code = 'DEVICE_LIMIT_REACHED' as const;
  constructor(
    readonly maxDevices: number,
    readonly active: number,
  ) {
    super(
      'Device limit reached',
      `The license allows ${maxDevices} active device${maxDevices === 1 ? '' : 's'} and has ${active}; deactivate one first`,
    );
  }

  /** The fields the error's answer carries beside the envelope's. */
  get fields(): { readonly max_devices: number; readonly active: number } {
    return { max_devices: this.maxDevices, active: this.active };
  }
}

/** A key call named a device that is not active on the key's license (CONTRACT 23). */
export class DeviceNotActivatedError extends DomainError {
  readonly code = 'DEVICE_NOT_ACTIVATED' as const;
  constructor() {
    super('Device not activated', 'Activate the device first (POST /v1/devices/activate), or send the fingerprint it was activated with');
  }
}

/** A key call on a tier that requires a device named none (CONTRACT 23). */
export class DeviceRequiredError extends DomainError {
  readonly code = 'DEVICE_REQUIRED' as const;
  constructor() {
    super('Device required', 'This license requires an active device: send its fingerprint in X-Device-Fingerprint');
  }
}

/** No active device with that fingerprint (or id) on the license. */
export class DeviceNotFoundError extends DomainError {
  readonly code = 'DEVICE_NOT_FOUND' as const;
  constructor() {
    super('Device not found or not active');
  }
}
