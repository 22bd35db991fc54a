// Which text encoding an imported file is in, decided from its bytes as they arrive (pure: no I/O). Spreadsheet
// programs save CSV as UTF-8 (with or without a byte-order mark), as UTF-16 with a mark ("Unicode text") or in the
// Windows code page of the user's locale, which for the shops we serve is Windows-1252. A file that is none of these,
// or is not text at all (an archive, a workbook, a PDF), is refused with the reason, before anything is imported.

export type TextEncoding = 'utf-8' | 'utf-16le' | 'utf-16be' | 'windows-1252';

/** The file cannot be imported at all: nothing is written and the reason is answered (422). */
export class ImportFileError extends Error {}

/** Magic numbers of files that are not CSV, each with what to tell the shop. */
const NOT_TEXT: { magic: number[]; offset?: number; what: string }[] = [
  { magic: [0x50, 0x4b, 0x03, 0x04], what: 'a ZIP archive or an Excel/OpenDocument workbook' },
  { magic: [0x50, 0x4b, 0x05, 0x06], what: 'a ZIP archive' },
  { magic: [0x1f, 0x8b], what: 'a gzip archive' },
  { magic: [0x37, 0x7a, 0xbc, 0xaf, 0x27, 0x1c], what: 'a 7-Zip archive' },
  { magic: [0x52, 0x61, 0x72, 0x21], what: 'a RAR archive' },
  { magic: [0x42, 0x5a, 0x68], what: 'a bzip2 archive' },
  { magic: [0xfd, 0x37, 0x7a, 0x58, 0x5a, 0x00], what: 'an xz archive' },
  { magic: [0x75, 0x73, 0x74, 0x61, 0x72], offset: 257, what: 'a tar archive' },
  { magic: [0xd0, 0xcf, 0x11, 0xe0], what: 'an old Excel workbook (.xls)' },
  { magic: [0x25, 0x50, 0x44, 0x46], what: 'a PDF document' },
];

/** Bytes that Windows-1252 leaves undefined: a file holding them is in some other code page. */
const UNDEFINED_1252 = [0x81, 0x8d, 0x8f, 0x90, 0x9d];

const startsWith = (bytes: Uint8Array, magic: number[], offset = 0) =>
  bytes.length >= offset + magic.length && magic.every((b, i) => bytes[offset + i] === b);

const SAVE_AS = 'Save it as CSV (UTF-8) and upload that file.';

/**
 * Feed it the file's bytes in order (`push`), then ask `encoding()`. Holds no more than the first 512 bytes and one
 * streaming UTF-8 check, so a 100 MB upload is judged as it passes by.
 */
export class EncodingSniffer {
  private head = new Uint8Array(0);
  private bom: TextEncoding | undefined;
  private utf8 = new TextDecoder('utf-8', { fatal: true });
  private validUtf8 = true;
  private undefined1252: number | undefined;
  private nul: number | undefined;
  private size = 0;

  push(chunk: Uint8Array): void {
    if (this.head.length < 512) {
      const joined = new Uint8Array(Math.min(512, this.head.length + chunk.length));
      joined.set(this.head);
      joined.set(chunk.subarray(0, joined.length - this.head.length), this.head.length);
      this.head = joined;
    }
    if (this.size === 0 || this.head.length < 4) this.bom = bomOf(this.head)?.encoding;
    if (this.bom === undefined || this.bom === 'utf-8') {
      // Native searches: a byte loop in JavaScript costs seconds on a 100 MB file.
      if (this.nul === undefined) {
        const at = chunk.indexOf(0);
        if (at >= 0) this.nul = this.size + at;
      }
      if (this.undefined1252 === undefined) {
        const found = UNDEFINED_1252.map((b) => chunk.indexOf(b)).filter((at) => at >= 0);
        if (found.length) this.undefined1252 = this.size + Math.min(...found);
      }
      if (this.validUtf8) {
        try {
          this.utf8.decode(chunk, { stream: true });
        } catch {
          this.validUtf8 = false;
        }
      }
    }
    this.size += chunk.length;
  }

  /** The file's encoding; throws ImportFileError when it is not a text file we read. */
  encoding(): TextEncoding {
    for (const kind of NOT_TEXT) {
      if (startsWith(this.head, kind.magic, kind.offset))
        throw new ImportFileError(`The file is ${kind.what}, not a CSV file. ${SAVE_AS}`);
    }
    if (this.size === 0) throw new ImportFileError('The file is empty.');
    if (this.bom) {
      if (this.bom !== 'utf-8') return this.bom;
    }
    if (this.nul !== undefined) {
      throw new ImportFileError(
        `The file holds NUL bytes (first at byte ${this.nul + 1}): it is not a text file, or it is UTF-16 without a byte-order mark. ${SAVE_AS}`,
      );
    }
    if (this.validUtf8) {
      try {
        this.utf8.decode();
        return 'utf-8';
      } catch {
        // The file ends inside a character: not UTF-8.
      }
    }
    if (this.bom === 'utf-8') throw new ImportFileError(`The file starts as UTF-8 but is not valid UTF-8. ${SAVE_AS}`);
    if (this.undefined1252 !== undefined) {
      throw new ImportFileError(
        `The file is neither UTF-8, UTF-16 nor Windows-1252 (byte ${this.undefined1252 + 1} has no meaning in those). ${SAVE_AS}`,
      );
    }
    return 'windows-1252';
  }
}

function bomOf(bytes: Uint8Array): { encoding: TextEncoding } | undefined {
  if (startsWith(bytes, [0xef, 0xbb, 0xbf])) return { encoding: 'utf-8' };
  if (startsWith(bytes, [0xff, 0xfe])) return { encoding: 'utf-16le' };
  if (startsWith(bytes, [0xfe, 0xff])) return { encoding: 'utf-16be' };
  return undefined;
}

/** A streaming decoder for the encoding found; a byte-order mark is dropped. */
export function textDecoder(encoding: TextEncoding): TextDecoder {
  return new TextDecoder(encoding);
}
