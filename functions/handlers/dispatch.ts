// placeholder until the handler lands
export const handler = async (): Promise<never> => {
  throw new Error('dispatch handler: not implemented yet');
};
