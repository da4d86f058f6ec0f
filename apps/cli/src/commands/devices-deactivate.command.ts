import { DeactivateDevice, ListLicenseDevices } from '@svc/application';
import { deactivatedLicenseDeviceViewOf } from '@svc/presentation';
import { SubCommand } from 'nest-commander';
import { cliActor } from '../shared/cli-actor';
import { CliCommand, CommonOptions } from '../shared/cli-command';
import { deactivatedDeviceSummary } from '../shared/summaries';

/**
 * `devices deactivate DEVICE_ID`: POST /admin/v1/keys/{key_id}/devices/{device_id}/deactivate, the device
 * named by its id alone: frees its seat (reason operator, the CLI's user in the audit). Idempotent.
 */
@SubCommand({
  name: 'deactivate',
  arguments: '<device_id>',
  argsDescription: { device_id: 'the device id (dev_...)' },
  description: "deactivate a device (frees its license's seat)",
})
export class DevicesDeactivateCommand extends CliCommand {
  constructor(
    private readonly listDevices: ListLicenseDevices,
    private readonly deactivateDevice: DeactivateDevice,
  ) {
    super();
  }

  async run([deviceId]: string[], options: CommonOptions = {}): Promise<void> {
    const key = await this.listDevices.keyOfDevice(deviceId);
    const { device } = await this.deactivateDevice.execute({ key, device: { deviceId }, reason: 'operator', actor: cliActor() });
    const view = deactivatedLicenseDeviceViewOf(device);
    this.print(options, view, () => deactivatedDeviceSummary(view));
  }
}
