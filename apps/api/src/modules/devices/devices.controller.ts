import { Body, Controller, Header, HttpCode, Post, Res } from '@nestjs/common';
import { ApiBody, ApiCreatedResponse, ApiOkResponse, ApiOperation, ApiTags } from '@nestjs/swagger';
import { ActivateDevice, DeactivateDevice, HeartbeatDevice } from '@svc/application';
import { ApiKey, keyActor } from '@svc/domain';
import { type FastifyReply } from 'fastify';
import { ApiKeyAuth } from '../../api-key-auth/api-key-auth.decorator';
import { CurrentKey } from '../../api-key-auth/authenticated-key';
import { RATE_LIMIT_HEADERS } from '../../openapi/rate-limit-headers';
import { ActivateDeviceRequest, DeviceRequest } from './dto/device.request';
import { DeactivatedDeviceResponse, DeviceResponse, deactivatedDeviceResponseOf, deviceResponseOf } from './dto/device.response';

/** CONTRACT 23: the SDK's device calls. The key is read from the body; the three share one limit per key. */
@ApiTags('devices')
@Controller('v1/devices')
export class DevicesController {
  constructor(
    private readonly activateDevice: ActivateDevice,
    private readonly heartbeatDevice: HeartbeatDevice,
    private readonly deactivateDevice: DeactivateDevice,
  ) {}

  @Post('activate')
  @Header('Cache-Control', 'no-store')
  @ApiKeyAuth({ from: ['body'], limit: 'devices', namesDevice: false, errors: ['DEVICE_LIMIT_REACHED'] })
  @ApiOperation({
    summary: 'Activate a device',
    description:
      "Takes one of the license's seats for the fingerprint (201), or answers the device already holding one (200). " +
      'DEVICE_LIMIT_REACHED when every seat is held: of concurrent activations exactly as many succeed as there were free seats. ' +
      "Seats are the license's, shared by its rotated keys. RATE_LIMIT_DEVICES_PER_MINUTE (10) per key, with heartbeat and deactivate.",
  })
  @ApiBody({ type: ActivateDeviceRequest })
  @ApiCreatedResponse({ type: DeviceResponse, headers: RATE_LIMIT_HEADERS, description: 'The device took a seat' })
  @ApiOkResponse({ type: DeviceResponse, headers: RATE_LIMIT_HEADERS, description: 'The fingerprint already held a seat: that device' })
  async activate(
    @CurrentKey() key: ApiKey,
    @Body() body: ActivateDeviceRequest,
    @Res({ passthrough: true }) reply: FastifyReply,
  ): Promise<DeviceResponse> {
    const activated = await this.activateDevice.execute({
      key,
      fingerprint: body.fingerprint,
      name: body.name ?? null,
      platform: body.platform ?? null,
    });
    void reply.status(activated.created ? 201 : 200);
    return deviceResponseOf(activated);
  }

  @Post('heartbeat')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @ApiKeyAuth({ from: ['body'], limit: 'devices', namesDevice: false, errors: ['DEVICE_NOT_FOUND'] })
  @ApiOperation({
    summary: "Renew a device's lease",
    description: 'The active device of the fingerprint, seen now (its lease renewed). DEVICE_NOT_FOUND when it is not active.',
  })
  @ApiBody({ type: DeviceRequest })
  @ApiOkResponse({ type: DeviceResponse, headers: RATE_LIMIT_HEADERS, description: 'The device, seen now' })
  async heartbeat(@CurrentKey() key: ApiKey, @Body() body: DeviceRequest): Promise<DeviceResponse> {
    return deviceResponseOf(await this.heartbeatDevice.execute({ key, fingerprint: body.fingerprint }));
  }

  @Post('deactivate')
  @HttpCode(200)
  @Header('Cache-Control', 'no-store')
  @ApiKeyAuth({ from: ['body'], limit: 'devices', namesDevice: false, errors: ['DEVICE_NOT_FOUND'] })
  @ApiOperation({
    summary: 'Deactivate a device',
    description: 'Frees the seat of the active device of the fingerprint. DEVICE_NOT_FOUND when it is not active.',
  })
  @ApiBody({ type: DeviceRequest })
  @ApiOkResponse({ type: DeactivatedDeviceResponse, headers: RATE_LIMIT_HEADERS, description: 'The seat is free' })
  async deactivate(@CurrentKey() key: ApiKey, @Body() body: DeviceRequest): Promise<DeactivatedDeviceResponse> {
    const { device } = await this.deactivateDevice.execute({
      key,
      device: { fingerprint: body.fingerprint },
      reason: 'sdk',
      actor: keyActor(key.id),
    });
    return deactivatedDeviceResponseOf(device);
  }
}
