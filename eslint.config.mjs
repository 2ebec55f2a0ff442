// ESLint for svctrail's TypeScript (src/, test/, bench/, ui/src/) and its plain Node scripts (bin/, bench/build.js).
// Formatting is prettier's (npm run format); layers are dependency-cruiser's (.dependency-cruiser.cjs);
// unused files and exports are knip's. This file only holds rules about what the code does.
import js from '@eslint/js';
import { defineConfig } from 'eslint/config';
import globals from 'globals';
import tseslint from 'typescript-eslint';

export default defineConfig(
  { ignores: ['**/dist/**', 'bench/data/**', 'bench/results/**', 'ui/vite.config.mjs'] },
  {
    files: ['src/**/*.ts', 'test/**/*.ts', 'bench/**/*.ts', 'ui/src/**/*.ts'],
    extends: [js.configs.recommended, tseslint.configs.recommendedTypeChecked],
    languageOptions: {
      parserOptions: {
        // test/tsconfig.json holds src/ with its specs and test/; ui/ and bench/ have their own
        // compiler settings (DOM, bundler resolution), so each file is typed as tsc checks it.
        project: ['test/tsconfig.json', 'ui/tsconfig.json', 'bench/tsconfig.json'],
        tsconfigRootDir: import.meta.dirname,
      },
    },
    rules: {
      // A promise nobody awaits loses its error (an unhandled rejection kills the process); a
      // promise passed where a callback's result is ignored (an event handler) does too. Where
      // fire-and-forget is meant, `void` says so.
      '@typescript-eslint/no-floating-promises': 'error',
      '@typescript-eslint/no-misused-promises': 'error',
      // `_`-prefixed parameters are the ones an interface or callback signature makes us take.
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
      // Type-only imports vanish from the compiled JS, so importing a type never loads (or cycles
      // through) a module. Files with decorators are left alone by the rule: Nest's injection reads
      // constructor parameter types from the emitted metadata, which needs the value import.
      // `import('...').T` stays allowed for the bench's lazily required dist/ modules.
      '@typescript-eslint/consistent-type-imports': ['error', { fixStyle: 'inline-type-imports', disallowTypeAnnotations: false }],
      // Rules the code already followed before the linter came; they keep it that way.
      eqeqeq: 'error',
      'no-var': 'error',
      // A `let` that closures read before its one assignment (a timer set after the handlers that clear it) stays a `let`.
      'prefer-const': ['error', { ignoreReadBeforeAssign: true }],
      'object-shorthand': 'error',
      // `!!x` narrows the type where Boolean(x) does not; `1 * s` keeps a table of durations aligned.
      'no-implicit-coercion': ['error', { allow: ['!!', '*'] }],
      // Off, deliberately. Parsed JSON (request bodies, stored objects, protobuf, kubeconfigs) is
      // `any` at the edges and checked by validation, not by the type system: the no-unsafe-* family
      // and no-explicit-any would flag every one of those reads (about 2,300 sites) without making
      // them safer. Template literals interpolate numbers and unions on purpose.
      '@typescript-eslint/no-explicit-any': 'off',
      '@typescript-eslint/no-unsafe-assignment': 'off',
      '@typescript-eslint/no-unsafe-member-access': 'off',
      '@typescript-eslint/no-unsafe-argument': 'off',
      '@typescript-eslint/no-unsafe-call': 'off',
      '@typescript-eslint/no-unsafe-return': 'off',
      '@typescript-eslint/restrict-template-expressions': 'off',
      // Async methods without an await implement a Promise-returning port (a synchronous engine
      // behind an interface the asynchronous one shares); that is the point of the port.
      '@typescript-eslint/require-await': 'off',
      // String(x) prints a value of unknown shape as it came (a parsed JSON field, a form entry): that is its use here.
      '@typescript-eslint/no-base-to-string': 'off',
      // Rejecting with a caught value passes it on as it was thrown.
      '@typescript-eslint/prefer-promise-reject-errors': ['error', { allowThrowingAny: true, allowThrowingUnknown: true }],
      // Methods passed as values are the class-free functions of an object (a reader's `get`), or
      // jest's `expect(mock.method)`; `this` is not involved.
      '@typescript-eslint/unbound-method': 'off',
    },
  },
  {
    // Plain CommonJS scripts run by node: no type information, no TypeScript rules.
    files: ['bin/**/*.js', 'bench/*.js'],
    extends: [js.configs.recommended],
    languageOptions: { sourceType: 'commonjs', globals: { ...globals.node } },
    rules: {
      eqeqeq: 'error',
      'no-var': 'error',
      'prefer-const': 'error',
      'no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_', caughtErrors: 'none' }],
    },
  },
);
