// placeholder until the handler lands
export const handler = async (): Promise<never> => {
  throw new Error('preferences-page handler: not implemented yet');
};
