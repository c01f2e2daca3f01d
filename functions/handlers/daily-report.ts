// placeholder until the handler lands
export const handler = async (): Promise<never> => {
  throw new Error('daily-report handler: not implemented yet');
};
