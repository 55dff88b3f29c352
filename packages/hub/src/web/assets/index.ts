import { createHash } from 'node:crypto'
import { Hono } from 'hono'
import { STYLES } from './styles.js'

const VERSION = createHash('sha256').update(STYLES).digest('hex').slice(0, 12)

/** The stylesheet's address names its content, so browsers may keep it for a year. */
export const STYLESHEET_PATH = `/assets/app.${VERSION}.css`

export const assets = new Hono().get(STYLESHEET_PATH, (c) => {
  c.header('Cache-Control', 'public, max-age=31536000, immutable')
  return c.body(STYLES, 200, { 'Content-Type': 'text/css; charset=utf-8' })
})
