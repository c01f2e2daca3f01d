// `npm start`: the local system (local/start.ts), from its freshness-checked bundle (bundledEntry.js).
import { importEntry } from './bundledEntry.js';

await importEntry('local/start.ts');
