import type { ApiModel } from '../model/index.js'
import type { Subject } from './enrichments/index.js'
import type { EntryKind, SubjectOf } from './entries.js'
import { modelOperationNames, viewName } from './model-names.js'
import { modelView, type ModelView } from './views.js'

/** One thing a generator runs over, with its manifest key and its enrichments route. */
export type Item<K extends EntryKind = EntryKind> = {
  readonly subject: SubjectOf[K]
  /** `GET /pets`, `webhook petCreated POST`, `query user`, `model Pet`. */
  readonly key: string
  /** What `skip` and `include` may name besides the key: an operation's path. */
  readonly path?: string
  readonly route: Subject
}

/** The items of one kind in a model, in document order. */
export function itemsOf<K extends EntryKind>(model: ApiModel, kind: K): readonly Item<K>[] {
  return itemLists[kind](model)
}

const itemLists: { [K in EntryKind]: (model: ApiModel) => readonly Item<K>[] } = {
  operation: (model) =>
    model.protocol === 'oas'
      ? model.operations.map((operation) => ({
          subject: { ...operation, name: modelOperationNames(model).get(operation)! },
          key: `${operation.method.toUpperCase()} ${operation.path}`,
          path: operation.path,
          route: { kind: 'operation', path: operation.path, method: operation.method },
        }))
      : [],
  webhook: (model) =>
    model.protocol === 'oas'
      ? model.webhooks.map((subject) => ({
          subject,
          key: `webhook ${subject.name} ${subject.method.toUpperCase()}`,
          route: { kind: 'webhook', name: subject.name, method: subject.method },
        }))
      : [],
  graphql: (model) =>
    model.protocol === 'gql'
      ? model.operations.map((subject) => ({
          subject,
          key: `${subject.rootKind} ${subject.fieldName}`,
          route: { kind: 'graphql', rootKind: subject.rootKind, fieldName: subject.fieldName },
        }))
      : [],
  model: (model) =>
    Object.keys(model.components.schemas).map((refName) => modelItem(model, refName)),
}

/** The item of a component schema, in the read view (the main model) unless told otherwise. */
export function modelItem(
  model: ApiModel,
  refName: string,
  view: ModelView = 'read',
): Item<'model'> {
  if (!Object.hasOwn(model.components.schemas, refName))
    throw new Error(`Ref "#/components/schemas/${refName}" not found`)
  return {
    subject: {
      refName,
      name: viewName(model, refName, view),
      view,
      schema: modelView(model, refName, view),
    },
    key: `model ${refName}`,
    route: { kind: 'model', refName },
  }
}
