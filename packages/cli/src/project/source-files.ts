import { readdirSync, statSync } from 'node:fs'
import { join, relative, sep } from 'node:path'

/** Files a publish never uploads from the project root: what `svc bundle` derives. */
export const DERIVED_ROOT_FILES: ReadonlySet<string> = new Set([
  'server.ts',
  'server.js',
  'bundle.js',
  'worker.ts',
])

/** Binary assets a stack's source never needs: video, audio, images, documents, archives, fonts, binaries. */
export const BINARY_EXTENSIONS: ReadonlySet<string> = new Set(
  (
    'png jpg jpeg gif webp avif bmp ico tif tiff heic psd svgz ' +
    'mp4 m4v mov avi mkv webm wmv flv mpg mpeg mp3 wav ogg oga flac aac m4a opus ' +
    'pdf doc docx xls xlsx ppt pptx odt ods odp ' +
    'zip tar gz tgz bz2 xz 7z rar zst jar war ' +
    'woff woff2 ttf otf eot ' +
    'exe dll so dylib bin o a class wasm node dmg iso'
  ).split(' '),
)

export type SourceFile = {
  /** Relative to the project folder, with `/`. */
  readonly path: string
  readonly absolute: string
  readonly bytes: number
}

/**
 * The source set a publish uploads (SPEC §4.9): every file under the project folder except
 * dotfiles and dot-folders (but `.settings/`, which holds client.json, is kept), the derived
 * root artefacts, and binary assets; in path order. The root manifest is always in it.
 */
export function collectSourceFiles(projectDir: string): SourceFile[] {
  const files: SourceFile[] = []
  const walk = (dir: string) => {
    for (const entry of readdirSync(dir, { withFileTypes: true })) {
      const absolute = join(dir, entry.name)
      const path = relative(projectDir, absolute).split(sep).join('/')
      const atRoot = dir === projectDir
      if (
        entry.name.startsWith('.') &&
        !(atRoot && entry.isDirectory() && entry.name === '.settings')
      )
        continue
      if (entry.isDirectory()) walk(absolute)
      else if (entry.isFile()) {
        if (atRoot && DERIVED_ROOT_FILES.has(entry.name)) continue
        const extension = entry.name.includes('.') ? entry.name.split('.').pop()!.toLowerCase() : ''
        if (BINARY_EXTENSIONS.has(extension)) continue
        files.push({ path, absolute, bytes: statSync(absolute).size })
      }
    }
  }
  walk(projectDir)
  return files.sort((a, b) => (a.path < b.path ? -1 : a.path > b.path ? 1 : 0))
}
