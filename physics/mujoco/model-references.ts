/**
 * The files an MJCF model names, and where MuJoCo's own rules put each on disk: what the main XML
 * and every file it `<include>`s (or loads as a `<model>`) name in `file` attributes, resolved as
 * MuJoCo resolves them. MuJoCo's rules, as read in its source (google-deepmind/mujoco, 3.x) and
 * in doc/XMLreference.rst (compiler/meshdir, compiler/assetdir, include):
 *
 * - `<compiler>` (src/xml/xml_native_reader.cc, mjXReader::Compiler): `assetdir` sets both the
 *   mesh and the texture folder, then `meshdir` and `texturedir` override it; a later `<compiler>`
 *   overrides an earlier one; `strippath="true"` drops the folders of every asset's file name.
 * - mesh, skin, height field and flexcomp files open at meshdir + file (src/user/user_mesh.cc,
 *   mjCMesh::Compile and mjCSkin::Compile; src/user/user_objects.cc, mjCHField::Compile;
 *   src/user/user_flexcomp.cc); texture files, and a cube map's six faces, at texturedir + file
 *   (user_objects.cc, mjCTexture::Compile). All relative to the main file's folder.
 * - `<include file>` and `<model file>` open relative to the main file's folder (src/xml/xml.cc,
 *   IncludeXML; xml_native_reader.cc, the `model` branch); a `<model>` is a model of its own,
 *   whose files resolve against its own folder and its own `<compiler>`.
 * - A folder or file that is absolute is used as written; paths are joined and their `..` and `.`
 *   folded by text, not on disk (src/user/user_util.cc, FilePath::Combine and PathReduce).
 *
 * Not followed: MuJoCo's fallbacks where a file is not at that path (a nested include, or an
 * asset of an included file, tried in the included file's own folder; its virtual file system's
 * match on a file's base name). What they find depends on how the main file's path was spelled
 * and on which files are loaded, so a model that relies on them loads in one tool and not another.
 *
 * The XML is read as text: comments and CDATA are dropped, then every start tag's attributes
 * (either quote style) are read; MuJoCo reports whatever else is wrong with the XML when it compiles.
 */
import { resolve } from 'node:path';

export interface FileReference {
  /** The element that names the file ("mesh", "include") and its name attribute, if any. */
  element: string;
  name: string | undefined;
  /** The attribute ("file", or a cube map's "fileright"...) and its value as written. */
  attribute: string;
  file: string;
  /** The XML file the element is written in (an absolute path). */
  writtenIn: string;
  /** The path MuJoCo opens: relative to the main file's folder ("../meshes/a.stl"), or absolute as written. */
  opened: string;
  /** That file on disk (an absolute path). */
  path: string;
  /** Why there, for messages: `meshdir "../meshes"`, "no meshdir", "an absolute path", "relative to the main file's folder". */
  rule: string;
}

/** An XML file's text, or undefined where there is no such file (then it is only reported, not read). */
export type ReadText = (path: string) => string | undefined;

/** Elements whose `file` is found through meshdir (else assetdir), and those through texturedir. */
const MESH_DIR = new Set(['mesh', 'skin', 'hfield', 'flexcomp']);
const TEXTURE_ATTRIBUTES = ['file', 'fileright', 'fileleft', 'fileup', 'filedown', 'filefront', 'fileback'];

/** Every file the model at `xmlPath` names, in the order its XML (includes inlined) names them. */
export function modelReferences(xmlPath: string, read: ReadText): FileReference[] {
  const main = resolve(xmlPath);
  const out: FileReference[] = [];
  scanModel({ mainFolder: resolve(main, '..'), modelDir: '', read, seen: new Set([main]), out }, main);
  return out;
}

/** MuJoCo's FilePath: `more` joined onto `base` (an absolute `more` as written), then `.` and `..` folded by text. */
export function mujocoPath(base: string, more: string): string {
  const joined = isAbsolutePath(more) || base === '' ? more : /[\\/]$/.test(base) ? base + more : `${base}/${more}`;
  const prefix = absolutePrefix(joined);
  const parts = joined.slice(prefix.length).split(/[\\/]/);
  const last = parts.pop() ?? '';
  const dirs: string[] = [];
  for (const part of parts) {
    if (part === '..' && dirs.length > 0 && dirs[dirs.length - 1] !== '..') dirs.pop();
    else if (part !== '.') dirs.push(part);
  }
  return prefix + [...dirs, last].join('/');
}

/** MuJoCo's test: a leading slash or backslash, or a drive or scheme ("C:/", "C:\"). */
export function isAbsolutePath(path: string): boolean {
  return absolutePrefix(path) !== '';
}

function absolutePrefix(path: string): string {
  if (/^[\\/]/.test(path)) return path[0];
  const drive = /^.*?:[\\/]/.exec(path);
  return drive === null ? '' : drive[0];
}

interface Scan {
  mainFolder: string;
  /** The folder of the model being read, relative to the main file's ("" for the main model itself). */
  modelDir: string;
  read: ReadText;
  /** XML files already read: a file included twice is MuJoCo's error to report, and must not loop here. */
  seen: Set<string>;
  out: FileReference[];
}

/** What a model's `<compiler>` elements leave set, the last one winning as in MuJoCo's spec. */
interface Dirs {
  mesh?: { attribute: string; value: string };
  texture?: { attribute: string; value: string };
  strippath: boolean;
}

interface Asset { tag: Tag; attribute: string; kind: 'mesh' | 'texture'; writtenIn: string }

/** One model file and its includes: includes and models resolved at once, assets once its compiler is known. */
function scanModel(scan: Scan, modelPath: string): void {
  const dirs: Dirs = { strippath: false };
  const assets: Asset[] = [];
  const walk = (path: string, text: string): void => {
    for (const tag of startTags(text)) {
      if (tag.element === 'compiler') setDirs(dirs, tag);
      else if (tag.element === 'include' || tag.element === 'model') xmlReference(scan, tag, path, walk);
      else if (MESH_DIR.has(tag.element)) assets.push({ tag, attribute: 'file', kind: 'mesh', writtenIn: path });
      else if (tag.element === 'texture') assets.push(...TEXTURE_ATTRIBUTES.map((attribute) => ({ tag, attribute, kind: 'texture' as const, writtenIn: path })));
    }
  };
  const text = scan.read(modelPath);
  if (text !== undefined) walk(modelPath, text);
  for (const asset of assets) {
    const file = asset.tag.attributes.get(asset.attribute);
    if (file) scan.out.push(assetReference(scan, asset, file, dirs));
  }
}

function setDirs(dirs: Dirs, tag: Tag): void {
  const get = (attribute: string) => {
    const value = tag.attributes.get(attribute);
    return value ? { attribute, value } : undefined;
  };
  const asset = get('assetdir');
  if (asset) dirs.mesh = dirs.texture = asset;
  dirs.mesh = get('meshdir') ?? dirs.mesh;
  dirs.texture = get('texturedir') ?? dirs.texture;
  const strip = tag.attributes.get('strippath');
  if (strip !== undefined) dirs.strippath = strip === 'true';
}

/** An `<include>` (read in place, as MuJoCo inlines it) or a `<model>` (read as a model of its own folder). */
function xmlReference(scan: Scan, tag: Tag, writtenIn: string, walk: (path: string, text: string) => void): void {
  const file = tag.attributes.get('file');
  if (!file) return;
  const opened = mujocoPath(scan.modelDir, file);
  const path = resolve(scan.mainFolder, opened);
  const rule = isAbsolutePath(file) ? 'an absolute path' : scan.modelDir === '' ? 'relative to the main file\'s folder' : `relative to the folder of the model file ${scan.modelDir}`;
  scan.out.push({ element: tag.element, name: tag.attributes.get('name'), attribute: 'file', file, writtenIn, opened, path, rule });
  if (scan.seen.has(path)) return;
  scan.seen.add(path);
  if (tag.element === 'model') {
    scanModel({ ...scan, modelDir: opened.slice(0, Math.max(opened.lastIndexOf('/'), opened.lastIndexOf('\\')) + 1) }, path);
    return;
  }
  const text = scan.read(path);
  if (text !== undefined) walk(path, text);
}

function assetReference(scan: Scan, asset: Asset, written: string, dirs: Dirs): FileReference {
  const file = dirs.strippath ? written.slice(Math.max(written.lastIndexOf('/'), written.lastIndexOf('\\')) + 1) : written;
  const dir = asset.kind === 'mesh' ? dirs.mesh : dirs.texture;
  const opened = mujocoPath(scan.modelDir, mujocoPath(dir?.value ?? '', file));
  const rule = isAbsolutePath(file) ? 'an absolute path' : dir === undefined ? `no ${asset.kind}dir` : `${dir.attribute} "${dir.value}"`;
  return {
    element: asset.tag.element, name: asset.tag.attributes.get('name'), attribute: asset.attribute, file: written,
    writtenIn: asset.writtenIn, opened, path: resolve(scan.mainFolder, opened), rule: dirs.strippath ? `${rule}, strippath` : rule,
  };
}

interface Tag { element: string; attributes: Map<string, string> }

const SKIPPED_TEXT = /<!--[\s\S]*?-->|<!\[CDATA\[[\s\S]*?\]\]>/g;
const START_TAG = /<([A-Za-z_][\w.:-]*)((?:\s+[^\s=/>]+\s*=\s*(?:"[^"]*"|'[^']*'))*)\s*\/?>/g;
const ATTRIBUTE = /([^\s=]+)\s*=\s*(?:"([^"]*)"|'([^']*)')/g;
const ENTITIES: Record<string, string> = { lt: '<', gt: '>', amp: '&', quot: '"', apos: '\'' };

/** Every start tag of the XML, in order, outside comments and CDATA. */
function startTags(xml: string): Tag[] {
  const text = xml.replace(SKIPPED_TEXT, '');
  return [...text.matchAll(START_TAG)].map((m) => ({
    element: m[1],
    attributes: new Map([...m[2].matchAll(ATTRIBUTE)].map((a) => [a[1], unescape(a[2] ?? a[3])])),
  }));
}

function unescape(value: string): string {
  return value.replace(/&(#x[0-9a-fA-F]+|#[0-9]+|[a-z]+);/g, (whole, code: string) => {
    if (code.startsWith('#x')) return String.fromCodePoint(parseInt(code.slice(2), 16));
    if (code.startsWith('#')) return String.fromCodePoint(parseInt(code.slice(1), 10));
    return ENTITIES[code] ?? whole;
  });
}
