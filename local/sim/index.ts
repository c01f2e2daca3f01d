/** The local chain simulator: see README.md beside this file. */
export { startSimulator, type RunningSimulator, type StartOptions } from './http/server';
export { Simulator, type SimulatorOptions } from './simulator';
export { SimControlClient, SimControlError } from './controlClient';
export { findDemo, setUpDemo, type DemoAccount, type DemoDelegate, type DemoOptions } from './demo';
export type { FaultProfileInput, FaultRuleInput, ChainRoute, FaultKind } from './faults/faultProfile';
