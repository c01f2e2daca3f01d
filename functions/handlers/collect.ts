// placeholder until the handler lands
export const handler = async (): Promise<never> => {
  throw new Error('collect handler: not implemented yet');
};
