// placeholder until the handler lands
export const handler = async (): Promise<never> => {
  throw new Error('sign-revocation handler: not implemented yet');
};
