/**
 * Entry of `npm start` (`node bin/start.js` runs it from its bundle, `bin/bundledEntry.js`): silences
 * the AWS SDK's Node 20 notice (the Lambdas run Node 22) before anything loads the SDK, then runs `startMain.ts`.
 */
process.env['AWS_SDK_JS_NODE_VERSION_SUPPORT_WARNING_DISABLED'] ??= 'true';
await import('./startMain');
export {};
