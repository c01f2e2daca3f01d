import { mkdir, readFile, rename, writeFile } from 'node:fs/promises';
import { dirname } from 'node:path';
import { protectionStateOf, type ProtectionState, type ProtectionSwitch } from '../domain/protectionSwitch';

/**
 * The stage-wide protection switch as a file (locally: in the state folder, where the CLI and
 * `serve` both read it). Read afresh on every call, so a change counts at once; a missing or
 * unreadable file is `off`. Written atomically (a temporary file renamed over it).
 */
export class FileProtectionSwitch implements ProtectionSwitch {
  constructor(readonly location: string) {}

  async read(): Promise<ProtectionState> {
    try {
      return protectionStateOf((await readFile(this.location, 'utf8')).trim());
    } catch {
      return 'off';
    }
  }

  async write(state: ProtectionState): Promise<void> {
    await mkdir(dirname(this.location), { recursive: true });
    const temporary = `${this.location}.${process.pid}.tmp`;
    await writeFile(temporary, `${state}\n`, { mode: 0o600 });
    await rename(temporary, this.location);
  }
}
