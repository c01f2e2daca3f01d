import { SSMClient } from '@aws-sdk/client-ssm';
import type { Settings } from '../config/settings';
import type { ProtectionSwitch } from '../domain/protectionSwitch';
import { FileProtectionSwitch } from '../store/fileProtectionSwitch';
import { SsmProtectionSwitch } from '../store/ssmProtectionSwitch';

/** A switch that is always off and cannot be turned on: a stage with neither a parameter nor a local file. */
const ALWAYS_OFF: ProtectionSwitch = {
  location: 'none (PROTECTION_PARAMETER_NAME is not set)',
  read: () => Promise.resolve('off'),
  write: () => Promise.reject(new Error('no protection switch is configured: set PROTECTION_PARAMETER_NAME')),
};

/**
 * The stage-wide protection switch: the SSM parameter `PROTECTION_PARAMETER_NAME` when set,
 * else `localFile` (the local state folder's file, which the CLI and `serve` share), else a
 * switch that stays off.
 */
export function protectionSwitchFrom(settings: Settings, localFile: string | null = null): ProtectionSwitch {
  if (settings.PROTECTION_PARAMETER_NAME !== undefined) {
    return new SsmProtectionSwitch(new SSMClient({ region: settings.AWS_REGION }), settings.PROTECTION_PARAMETER_NAME);
  }
  return localFile === null ? ALWAYS_OFF : new FileProtectionSwitch(localFile);
}
