import { Duration } from 'aws-cdk-lib';
import { HANDLER_CATALOG, HANDLER_NAMES, type HandlerName } from '../../functions/config/handlerCatalog';

/** Timeout and memory of one Lambda. */
export interface FunctionSizing {
  readonly timeout: Duration;
  readonly memorySize: number;
}

/**
 * Sizing per handler, from `HANDLER_CATALOG` (where each choice is explained) as CDK values. Queue
 * visibility timeouts are derived from the consumers' timeouts here.
 */
export const FUNCTION_SIZING: Readonly<Record<HandlerName, FunctionSizing>> = Object.fromEntries(
  HANDLER_NAMES.map((name) => [
    name,
    { timeout: Duration.seconds(HANDLER_CATALOG[name].sizing.timeoutSeconds), memorySize: HANDLER_CATALOG[name].sizing.memoryMb },
  ]),
) as Record<HandlerName, FunctionSizing>;
