// placeholder until the handler lands
export const handler = async (): Promise<never> => {
  throw new Error('notify handler: not implemented yet');
};
