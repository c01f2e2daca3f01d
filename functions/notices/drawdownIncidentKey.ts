/** The pager incident of one drawdown level of one account: the trigger and its resolve share it. */
export function drawdownIncidentKey(account: string, level: number): string {
  return `drawdown:${account.toLowerCase()}:${level}`;
}
