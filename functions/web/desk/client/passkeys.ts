/* Placeholder entry: the passkey forms (stage 4). */
export {};
