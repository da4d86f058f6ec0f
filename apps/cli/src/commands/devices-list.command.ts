import { ListLicenseDevices } from '@svc/application';
import { licenseDeviceListViewOf } from '@svc/presentation';
import { SubCommand } from 'nest-commander';
import { CliCommand, CommonOptions } from '../shared/cli-command';
import { deviceListSummary } from '../shared/summaries';

/** `devices list KEY_ID`: GET /admin/v1/keys/{key_id}/devices. Never a fingerprint. */
@SubCommand({
  name: 'list',
  arguments: '<key_id>',
  argsDescription: { key_id: 'a key id (key_...) of the license' },
  description: "list the devices of a key's license (all its keys), active first",
})
export class DevicesListCommand extends CliCommand {
  constructor(private readonly listDevices: ListLicenseDevices) {
    super();
  }

  async run([keyId]: string[], options: CommonOptions = {}): Promise<void> {
    const view = licenseDeviceListViewOf(await this.listDevices.execute(keyId));
    this.print(options, view, () => deviceListSummary(view));
  }
}
