import * as z from 'zod';

/** The stage-wide switch of automatic protective actions (a person's click works either way). */
export const protectionStateSchema = z.enum(['on', 'off']);
export type ProtectionState = z.infer<typeof protectionStateSchema>;

/**
 * Where the stage-wide switch lives: an SSM parameter in AWS, a file in the local state folder.
 * `read` never throws: a missing, unreadable or malformed value is `off`, so nothing automatic
 * happens unless someone turned it on.
 */
export interface ProtectionSwitch {
  read(): Promise<ProtectionState>;
  /** Sets the switch (throws the adapter's error when it cannot). */
  write(state: ProtectionState): Promise<void>;
  /** Where it lives, for `protection status` (a parameter name or a file path). */
  readonly location: string;
}

/** The state a stored value stands for: exactly `on` is on; anything else, absent included, is off. */
export function protectionStateOf(value: unknown): ProtectionState {
  return typeof value === 'string' && value.trim() === 'on' ? 'on' : 'off';
}
