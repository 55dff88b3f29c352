/** The exit codes of every svc command (SPEC §7.8, §4.9), in one place. */
export const EXIT = Object.freeze({
  /** Success, including documented no-ops. */
  ok: 0,
  /** Fatal failure: an error-level parse issue, an unreadable document, any unrecoverable error. */
  failure: 1,
  /** A required input is missing or invalid; a recipe error is on stderr. */
  usage: 2,
})

export type ExitCode = (typeof EXIT)[keyof typeof EXIT]

/** An unrecoverable failure that is not the document's fault, such as an unwritable `-o`: exit 1. */
export class CommandError extends Error {
  override readonly name: string = 'CommandError'
}

/**
 * A step of a staged command (publish, push) that failed: the command catches it and answers a
 * `failed` result naming the stage, so it never reaches `run`.
 */
export class StageFailure<Stage extends string> extends Error {
  override readonly name = 'StageFailure'
  constructor(
    readonly stage: Stage,
    reason: string,
  ) {
    super(reason)
  }
}

/** Runs `step`, turning anything it throws into a StageFailure at `stage` with the same reason. */
export async function atStage<Stage extends string, T>(
  stage: Stage,
  step: () => T | Promise<T>,
): Promise<T> {
  try {
    return await step()
  } catch (error) {
    if (error instanceof StageFailure) throw error
    throw new StageFailure(stage, (error as Error).message)
  }
}

/** What a staged command answers when a stage failed. */
export type StageFailed<Stage extends string> = {
  readonly type: 'failed'
  readonly projectName: string
  readonly reason: string
  readonly stage: Stage
}

/**
 * The `failed` result of a staged command for what one of its stages threw; anything that is not
 * a StageFailure is not a stage's failure and is thrown on.
 */
export function stageFailed<Stage extends string>(
  error: unknown,
  projectName: string,
): StageFailed<Stage> {
  if (!(error instanceof StageFailure)) throw error
  // Only the command's own stages are thrown inside its try.
  const stage = error.stage as Stage
  return { type: 'failed', projectName, reason: error.message, stage }
}

type LocatedError = { message: string; file?: string; line?: number; column?: number }

/** The stderr line for a document that cannot be read: `error: file:line:column: message`. */
export function formatDocumentError(error: LocatedError): string {
  const at = error.line !== undefined ? `:${error.line}:${error.column}` : ''
  return `error: ${error.file ? `${error.file}${at}: ` : ''}${error.message}`
}

/** The `error` member of a `--json` report whose document cannot be read. */
export function documentErrorJson(error: LocatedError & { code: string }): Record<string, unknown> {
  return {
    code: error.code,
    message: error.message,
    ...(error.line !== undefined ? { line: error.line, column: error.column } : {}),
    ...(error.file !== undefined ? { file: error.file } : {}),
  }
}

/** What a user needs to fix a missing or invalid input: printed on stderr, exit code 2. */
export type Recipe = {
  /** One sentence: what is missing or wrong. */
  readonly problem: string
  readonly usage: string
  readonly example: string
  /** The follow-up command that lists candidate values. */
  readonly discover: string
}

export class RecipeError extends Error {
  override readonly name = 'RecipeError'
  constructor(readonly recipe: Recipe) {
    super(recipe.problem)
  }
}

export function formatRecipe(recipe: Recipe): string {
  return [
    `error: ${recipe.problem}`,
    `Usage: ${recipe.usage}`,
    `Example: ${recipe.example}`,
    `Discover: ${recipe.discover}`,
  ].join('\n')
}
