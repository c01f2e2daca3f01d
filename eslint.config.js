// @ts-check
import js from '@eslint/js';
import tseslint from 'typescript-eslint';
import globals from 'globals';

/** `import { z }` keeps all of zod in every Lambda bundle (~345 KB); the namespace import lets esbuild tree-shake it. */
const ZOD_NAMESPACE_IMPORT = {
  selector: "ImportDeclaration[source.value='zod'][importKind='value'] > ImportSpecifier[imported.name='z']",
  message: "Use `import * as z from 'zod'` (tree-shakeable in the Lambda bundles).",
};

/** `f?.(await g())` never runs `g` when `f` is undefined: an optional call skips its arguments. */
const WORK_IN_OPTIONAL_CALL = {
  selector: 'CallExpression[optional=true] > AwaitExpression.arguments',
  message: 'An optional call skips its arguments when the callee is undefined: await the work first, then pass its result.',
};

export default tseslint.config(
  { ignores: ['node_modules/', 'cdk.out/', '.sentinel/', 'test-artifacts/', 'coverage/', 'dist/', '.cache/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/consistent-type-imports': 'error',
      'no-console': 'off',
      'no-restricted-syntax': ['error', WORK_IN_OPTIONAL_CALL],
    },
  },
  {
    // Type-aware rules over the code that runs (shipped, CLI, local tools); tests and benches keep the fast lint.
    files: ['functions/**/*.ts', 'cli/**/*.ts', 'local/**/*.ts', 'infra/**/*.ts'],
    languageOptions: { parserOptions: { projectService: true, tsconfigRootDir: import.meta.dirname } },
    rules: {
      // A promise nobody awaits loses its error (and, in a Lambda, its work when the handler returns).
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
    },
  },
  {
    files: ['functions/**/*.ts'],
    rules: { 'no-restricted-syntax': ['error', ZOD_NAMESPACE_IMPORT, WORK_IN_OPTIONAL_CALL] },
  },
  {
    files: ['functions/domain/**/*.ts'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['@aws-sdk/*', 'node:*', '../*'] }],
      'no-restricted-syntax': [
        'error',
        ZOD_NAMESPACE_IMPORT,
        WORK_IN_OPTIONAL_CALL,
        { selector: "MemberExpression[object.name='process'][property.name='env']", message: 'Domain logic takes its inputs as arguments.' },
        { selector: "CallExpression[callee.object.name='Date'][callee.property.name='now']", message: 'Pass `now` in.' },
        { selector: "CallExpression[callee.name='fetch']", message: 'No I/O in domain logic.' },
      ],
    },
  },
);
