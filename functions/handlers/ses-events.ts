// placeholder until the handler lands
export const handler = async (): Promise<never> => {
  throw new Error('ses-events handler: not implemented yet');
};
