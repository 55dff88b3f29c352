import { existsSync } from 'node:fs'
import { Command } from 'commander'
import { describe, expect, it } from 'vitest'
import { commandPath, docsLink, finishCommands } from './help.js'

describe('docsLink', () => {
  it("is the page's file in this checkout, the shared page for logout and whoami", () => {
    expect(docsLink('check')).toMatch(/\/docs\/commands\/check\.md$/)
    expect(existsSync(docsLink('check'))).toBe(true)
    expect(docsLink('whoami')).toMatch(/\/docs\/commands\/login\.md$/)
  })

  it('names the page in the repository when this checkout has no such file', () => {
    expect(docsLink('nothing-here sub')).toBe('docs/commands/nothing-here.md in the svc repository')
  })
})

describe('finishCommands', () => {
  it('gives every leaf command --no-input and a Docs line, down to subcommands', () => {
    const program = new Command('svc')
    const group = program.command('group')
    const leaf = group.command('leaf').option('--json')
    program.command('plain').option('--no-input', 'already here')
    finishCommands(program)
    expect(commandPath(leaf)).toBe('group leaf')
    expect(leaf.options.map((option) => option.long)).toEqual(['--json', '--no-input'])
    expect(group.options).toEqual([])
    const plain = program.commands.find((command) => command.name() === 'plain')!
    expect(plain.options.filter((option) => option.long === '--no-input')).toHaveLength(1)
    let help = ''
    leaf.configureOutput({ writeOut: (text) => (help += text) })
    leaf.outputHelp()
    expect(help).toContain('Docs: docs/commands/group.md in the svc repository')
  })
})
