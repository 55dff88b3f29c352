#!/usr/bin/env node
// Type-checks every source and test file (tsconfig.test.json) and lints them with ESLint, both
// from one TypeScript program: type-aware lint rules would otherwise build and check the same
// program a second time, which is most of what either step costs.
//
//   node scripts/check.js            type errors, then lint findings
//   node scripts/check.js --no-lint  type errors only
//   node scripts/check.js --fix      lint with fixes applied
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { ESLint } from 'eslint'
import ts from 'typescript'

const root = join(dirname(fileURLToPath(import.meta.url)), '..')
const args = new Set(process.argv.slice(2))

const config = ts.getParsedCommandLineOfConfigFile(join(root, 'tsconfig.test.json'), undefined, {
  ...ts.sys,
  onUnRecoverableConfigFileDiagnostic: (diagnostic) => {
    throw new Error(ts.flattenDiagnosticMessageText(diagnostic.messageText, '\n'))
  },
})
if (!config) throw new Error('cannot read tsconfig.test.json')
const program = ts.createProgram({
  rootNames: config.fileNames,
  options: config.options,
  projectReferences: config.projectReferences,
})

const diagnostics = ts.getPreEmitDiagnostics(program)
if (diagnostics.length > 0) {
  const host = {
    getCanonicalFileName: (name) => name,
    getCurrentDirectory: () => root,
    getNewLine: () => '\n',
  }
  process.stderr.write(ts.formatDiagnosticsWithColorAndContext(diagnostics, host))
  process.stderr.write(`\n${diagnostics.length} type error(s)\n`)
}

let findings = 0
if (!args.has('--no-lint')) {
  const eslint = new ESLint({
    cwd: root,
    fix: args.has('--fix'),
    overrideConfig: {
      files: ['**/*.ts', '**/*.tsx'],
      languageOptions: { parserOptions: { project: null, programs: [program] } },
    },
  })
  const results = await eslint.lintFiles(['.'])
  if (args.has('--fix')) await ESLint.outputFixes(results)
  findings = results.reduce((sum, r) => sum + r.errorCount + r.warningCount, 0)
  const formatter = await eslint.loadFormatter('stylish')
  const text = await formatter.format(results)
  if (text) process.stdout.write(text)
}

process.exitCode = diagnostics.length > 0 || findings > 0 ? 1 : 0
