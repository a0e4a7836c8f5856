import js from '@eslint/js';
import astro from 'eslint-plugin-astro';
import globals from 'globals';
import tseslint from 'typescript-eslint';

import { defineConfig } from 'eslint/config';

export default defineConfig(
  { ignores: ['dist/', '.astro/', '.cache/', 'data/', 'node_modules/'] },
  js.configs.recommended,
  ...tseslint.configs.recommended,
  ...astro.configs.recommended,
  {
    languageOptions: { globals: { ...globals.node, ...globals.browser } },
    rules: {
      '@typescript-eslint/no-unused-vars': ['error', { argsIgnorePattern: '^_', varsIgnorePattern: '^_' }],
      '@typescript-eslint/no-non-null-assertion': 'off',
    },
  },
  {
    // The house rules (docs/architecture.md, "Layers and where code lives"), enforced: lib/ is pure, islands never reach the server.
    files: ['src/lib/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['**/server/**', '**/pages/**', '**/islands/**', 'astro:*', 'node:*'] }],
    },
  },
  {
    // …and the server never reaches into an island (shared types live in lib/).
    files: ['src/server/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['**/islands/**'] }],
    },
  },
  {
    files: ['src/islands/**'],
    rules: {
      'no-restricted-imports': ['error', { patterns: ['**/server/**', 'astro:env/server', 'firebase-admin*', 'node:*'] }],
    },
  },
);
