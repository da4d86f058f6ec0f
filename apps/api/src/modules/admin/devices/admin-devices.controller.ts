import { Controller, Get, HttpCode, Param, Post } from '@nestjs/common';
import { ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { SkipThrottle } from '@nestjs/throttler';
import { DeactivateDevice, ListLicenseDevices } from '@svc/application';
import {
  LicenseDeviceListResponse,
  LicenseDeviceResponse,
  deactivatedLicenseDeviceViewOf,
  licenseDeviceListViewOf,
} from '@svc/presentation';
import { AdminAuth } from '../../../admin-auth/admin-auth.decorator';
import { AdminPrincipal, CurrentAdmin } from '../../../admin-auth/admin-principal';
import { ALWAYS, ApiErrors, PATH } from '../../../openapi/api-errors.decorator';

/** The operators' device calls (CONTRACT 23): a key's license's devices, and deactivating one. */
@ApiTags('admin')
@SkipThrottle()
@Controller()
export class AdminDevicesController {
  constructor(
    private readonly listDevices: ListLicenseDevices,
    private readonly deactivateDevice: DeactivateDevice,
  ) {}

  @Get('keys/:key_id/devices')
  @AdminAuth('keys.read')
  @ApiOperation({
    summary: "A key's license's devices",
    description:
      'Every device of the license (all its keys, rotated ones too): active first, then lapsed leases, then deactivated, each ' +
      'newest activation first. Never a fingerprint nor its digest.',
  })
  @ApiOkResponse({ type: LicenseDeviceListResponse, description: "The license's devices" })
  @ApiErrors(...PATH, 'KEY_NOT_FOUND', ...ALWAYS)
  async list(@Param('key_id') keyId: string): Promise<LicenseDeviceListResponse> {
    return licenseDeviceListViewOf(await this.listDevices.execute(keyId));
  }

  @Post('keys/:key_id/devices/:device_id/deactivate')
  @AdminAuth('devices.deactivate')
  @HttpCode(200)
  @ApiOperation({
    summary: 'Deactivate a device',
    description:
      "Frees the device's seat (reason operator), the same deactivation as the SDK's: an audit event (device.deactivated) with the " +
      'operator as actor. A device of another license, or none, is DEVICE_NOT_FOUND. Idempotent: a device deactivated already is ' +
      'answered 200 as it stands (its first deactivation and reason kept), and nothing is written.',
  })
  @ApiOkResponse({ type: LicenseDeviceResponse, description: 'The device, deactivated' })
  @ApiErrors(...PATH, 'KEY_NOT_FOUND', 'DEVICE_NOT_FOUND', ...ALWAYS)
  async deactivate(
    @CurrentAdmin() admin: AdminPrincipal,
    @Param('key_id') keyId: string,
    @Param('device_id') deviceId: string,
  ): Promise<LicenseDeviceResponse> {
    const key = await this.listDevices.keyOf(keyId);
    const { device } = await this.deactivateDevice.execute({ key, device: { deviceId }, reason: 'operator', actor: admin.actor });
    return deactivatedLicenseDeviceViewOf(device);
  }
}
