import { PutParameterCommand, type SSMClient } from '@aws-sdk/client-ssm';
import { SSMProvider } from '@aws-lambda-powertools/parameters/ssm';
import { protectionStateOf, type ProtectionState, type ProtectionSwitch } from '../domain/protectionSwitch';
import { StoreError } from './errors';

/** How long a read value is reused (seconds): a change counts within a minute, without a redeploy. */
export const PROTECTION_SWITCH_MAX_AGE_SECONDS = 30;

/**
 * The stage-wide protection switch as an SSM parameter (`PROTECTION_PARAMETER_NAME`), read
 * through Powertools' cached provider (at most {@link PROTECTION_SWITCH_MAX_AGE_SECONDS} old).
 * A missing parameter, a denied or failed read, or any value but `on` is `off`.
 */
export class SsmProtectionSwitch implements ProtectionSwitch {
  private readonly provider: SSMProvider;

  constructor(
    private readonly client: SSMClient,
    readonly location: string,
    private readonly maxAgeSeconds = PROTECTION_SWITCH_MAX_AGE_SECONDS,
  ) {
    this.provider = new SSMProvider({ awsSdkV3Client: client });
  }

  async read(): Promise<ProtectionState> {
    try {
      return protectionStateOf(await this.provider.get(this.location, { maxAge: this.maxAgeSeconds }));
    } catch {
      return 'off';
    }
  }

  async write(state: ProtectionState): Promise<void> {
    try {
      await this.client.send(new PutParameterCommand({ Name: this.location, Value: state, Type: 'String', Overwrite: true }));
    } catch (cause) {
      throw new StoreError('protection.write', `the parameter ${this.location} could not be written`, { cause });
    }
  }
}
