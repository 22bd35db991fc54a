// Inserts by group commit (see group-commit.ts) into a collection with unique indexes: each caller learns the fate
// of its own document: written, or a duplicate key (`'duplicate'`); any other error fails that caller only.
import type { Collection, Document, OptionalUnlessRequiredId } from 'mongodb';
import { GroupCommit, type Results } from './group-commit.js';

type InsertOutcome = 'inserted' | 'duplicate';

interface WriteError {
  index: number;
  code?: number;
}

/** The per-document errors of a failed unordered insertMany; null when the whole call failed. */
function writeErrorsOf(err: unknown): WriteError[] | null {
  const errors = (err as { writeErrors?: WriteError | WriteError[] }).writeErrors;
  if (errors === undefined) return null;
  return Array.isArray(errors) ? errors : [errors];
}

async function insertGroup<T extends Document>(
  collection: Collection<T>,
  docs: OptionalUnlessRequiredId<T>[],
): Promise<Results<InsertOutcome>> {
  try {
    await collection.insertMany(docs, { ordered: false });
    return docs.map(() => 'inserted' as const);
  } catch (err) {
    const errors = writeErrorsOf(err);
    if (!errors) throw err;
    const failed = new Map(errors.map((e) => [e.index, e]));
    return docs.map((_doc, i) => {
      const e = failed.get(i);
      if (!e) return 'inserted';
      if (e.code === 11000) return 'duplicate';
      return new Error(`insert into ${collection.collectionName} failed (code ${e.code})`, { cause: err });
    });
  }
}

export class GroupInsert<T extends Document> {
  private readonly commits: GroupCommit<OptionalUnlessRequiredId<T>, InsertOutcome>;

  constructor(collection: Collection<T>, maxBatch = 500) {
    this.commits = new GroupCommit((docs) => insertGroup(collection, docs), maxBatch);
  }

  insert(doc: OptionalUnlessRequiredId<T>): Promise<InsertOutcome> {
    return this.commits.add(doc);
  }
}
