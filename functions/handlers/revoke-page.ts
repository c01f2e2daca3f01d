// placeholder until the handler lands
export const handler = async (): Promise<never> => {
  throw new Error('revoke-page handler: not implemented yet');
};
