/**
 * Readings of common kanji/hanzi in song titles, so a title written in ideographs can meet its
 * Latin rendering (Hepburn romaji or toneless pinyin). Ideographs have no reading without a
 * dictionary; this compact, self-written table covers words that recur in titles. A title with
 * a character not in it keeps the character, and the scorer falls back to artist, length and album
 * and asks for review rather than rejecting.
 *
 * Japanese and Chinese read the same character differently (夢: yume / meng), so a title with
 * ideographs yields both renderings and the comparison keeps the better one. Kana in the title
 * mark it as Japanese, and then only the Japanese rendering is made.
 */

/** Japanese words (longest match first), kanji possibly with their kana endings, → romaji. */
const JA_WORDS: Record<string, string> = {
  世界: 'sekai', 未来: 'mirai', 約束: 'yakusoku', 永遠: 'eien', 希望: 'kibou', 明日: 'ashita', 今日: 'kyou', 昨日: 'kinou',
  時間: 'jikan', 東京: 'toukyou', 大阪: 'oosaka', 青春: 'seishun', 奇跡: 'kiseki', 運命: 'unmei', 花火: 'hanabi', 桜色: 'sakurairo',
  恋人: 'koibito', 恋愛: 'renai', 初恋: 'hatsukoi', 片思い: 'kataomoi', 片想い: 'kataomoi', 天使: 'tenshi', 悪魔: 'akuma',
  少年: 'shounen', 少女: 'shoujo', 友達: 'tomodachi', 家族: 'kazoku', 故郷: 'furusato', 宇宙: 'uchuu', 地球: 'chikyuu',
  太陽: 'taiyou', 月光: 'gekkou', 星空: 'hoshizora', 夜空: 'yozora', 青空: 'aozora', 夕焼け: 'yuuyake', 夕日: 'yuuhi',
  物語: 'monogatari', 記憶: 'kioku', 思い出: 'omoide', 想い出: 'omoide', 一つ: 'hitotsu', 二人: 'futari', 一人: 'hitori',
  独り: 'hitori', 心臓: 'shinzou', 秘密: 'himitsu', 革命: 'kakumei', 自由: 'jiyuu', 平和: 'heiwa', 戦争: 'sensou',
  残酷: 'zankoku', 紅蓮華: 'gurenge', 紅蓮: 'guren', 華: 'hana', 群青: 'gunjou', 夜明け: 'yoake', 夜に駆ける: 'yoru ni kakeru', 名前: 'namae',
  名: 'na', 愛: 'ai', 恋: 'koi', 夢: 'yume', 花: 'hana', 心: 'kokoro', 空: 'sora', 月: 'tsuki', 星: 'hoshi', 雨: 'ame',
  風: 'kaze', 海: 'umi', 桜: 'sakura', 光: 'hikari', 涙: 'namida', 君: 'kimi', 僕: 'boku', 私: 'watashi', 夜: 'yoru',
  春: 'haru', 夏: 'natsu', 秋: 'aki', 冬: 'fuyu', 雪: 'yuki', 青: 'ao', 赤: 'aka', 白: 'shiro', 黒: 'kuro', 虹: 'niji',
  道: 'michi', 歌: 'uta', 声: 'koe', 手: 'te', 音: 'oto', 色: 'iro', 旅: 'tabi', 朝: 'asa', 森: 'mori', 川: 'kawa',
  山: 'yama', 火: 'hi', 水: 'mizu', 今: 'ima', 時: 'toki', 人: 'hito', 猫: 'neko', 犬: 'inu', 鳥: 'tori', 魚: 'sakana',
  嘘: 'uso', 紅: 'kurenai', 炎: 'honoo', 翼: 'tsubasa', 瞳: 'hitomi', 唄: 'uta', 街: 'machi', 駆ける: 'kakeru',
  走る: 'hashiru', 会い: 'ai', 会う: 'au', 逢い: 'ai', 行く: 'iku', 帰る: 'kaeru', 見る: 'miru', 言う: 'iu', 生きる: 'ikiru',
  好き: 'suki', 大好き: 'daisuki', 優しい: 'yasashii', 美しい: 'utsukushii', 悲しい: 'kanashii', 寂しい: 'sabishii',
  強い: 'tsuyoi', 白い: 'shiroi', 赤い: 'akai', 青い: 'aoi', 黒い: 'kuroi', 新しい: 'atarashii', 小さな: 'chiisana',
  大きな: 'ookina', 千: 'sen', 万: 'man', 一: 'ichi', 二: 'ni', 三: 'san', 百: 'hyaku',
};

/** Toneless pinyin per character (traditional and simplified forms alike). */
const PINYIN: Record<string, string> = {
  爱: 'ai', 愛: 'ai', 我: 'wo', 你: 'ni', 他: 'ta', 她: 'ta', 的: 'de', 是: 'shi', 不: 'bu', 一: 'yi', 个: 'ge', 個: 'ge',
  人: 'ren', 心: 'xin', 梦: 'meng', 夢: 'meng', 花: 'hua', 月: 'yue', 亮: 'liang', 星: 'xing', 天: 'tian', 空: 'kong',
  雨: 'yu', 风: 'feng', 風: 'feng', 海: 'hai', 光: 'guang', 泪: 'lei', 淚: 'lei', 夜: 'ye', 春: 'chun', 夏: 'xia',
  秋: 'qiu', 冬: 'dong', 雪: 'xue', 青: 'qing', 白: 'bai', 黑: 'hei', 红: 'hong', 紅: 'hong', 时: 'shi', 時: 'shi',
  间: 'jian', 間: 'jian', 世: 'shi', 界: 'jie', 未: 'wei', 来: 'lai', 來: 'lai', 明: 'ming', 今: 'jin', 年: 'nian',
  好: 'hao', 想: 'xiang', 说: 'shuo', 說: 'shuo', 听: 'ting', 聽: 'ting', 见: 'jian', 見: 'jian', 看: 'kan', 走: 'zou',
  在: 'zai', 有: 'you', 没: 'mei', 沒: 'mei', 和: 'he', 就: 'jiu', 也: 'ye', 都: 'dou', 要: 'yao', 会: 'hui', 會: 'hui',
  小: 'xiao', 大: 'da', 中: 'zhong', 国: 'guo', 國: 'guo', 家: 'jia', 歌: 'ge', 情: 'qing', 恋: 'lian', 戀: 'lian',
  代: 'dai', 表: 'biao', 后: 'hou', 後: 'hou', 前: 'qian', 上: 'shang', 下: 'xia', 里: 'li', 裡: 'li', 东: 'dong',
  東: 'dong', 西: 'xi', 南: 'nan', 北: 'bei', 京: 'jing', 生: 'sheng', 命: 'ming', 永: 'yong', 远: 'yuan', 遠: 'yuan',
  朋: 'peng', 友: 'you', 再: 'zai', 别: 'bie', 別: 'bie', 离: 'li', 離: 'li', 等: 'deng', 回: 'hui', 忆: 'yi', 憶: 'yi',
  甜: 'tian', 蜜: 'mi', 温: 'wen', 溫: 'wen', 柔: 'rou', 勇: 'yong', 气: 'qi', 氣: 'qi', 孤: 'gu', 单: 'dan', 單: 'dan',
  晴: 'qing', 稻: 'dao', 香: 'xiang', 龙: 'long', 龍: 'long', 城: 'cheng', 故: 'gu', 事: 'shi', 告: 'gao', 白白: 'baibai',
  最: 'zui', 后的: 'hou de', 快: 'kuai', 乐: 'le', 樂: 'le', 美: 'mei', 丽: 'li', 麗: 'li', 少: 'shao', 女: 'nv',
  男: 'nan', 孩: 'hai', 谁: 'shui', 誰: 'shui', 为: 'wei', 為: 'wei', 什: 'shen', 么: 'me', 麼: 'me', 如: 'ru', 果: 'guo',
  江: 'jiang', 山: 'shan', 水: 'shui', 火: 'huo', 路: 'lu', 街: 'jie', 后来: 'houlai', 知: 'zhi', 道: 'dao',
};

const KANA_RE = /[\u3041-\u309f\u30a1-\u30ff]/u;
const HAN_RE = /[\u3400-\u4dbf\u4e00-\u9fff\uf900-\ufaff]/u;

const JA_KEYS = Object.keys(JA_WORDS).sort((a, b) => b.length - a.length);
const ZH_KEYS = Object.keys(PINYIN).sort((a, b) => b.length - a.length);

/** Greedy longest-match reading of the ideographs in `text`; unknown characters stay as they are. */
function read(text: string, table: Record<string, string>, keys: readonly string[]): string {
  let out = '';
  let i = 0;
  while (i < text.length) {
    const key = HAN_RE.test(text[i]!) ? keys.find((k) => text.startsWith(k, i)) : undefined;
    if (key) {
      out += ` ${table[key]!} `;
      i += key.length;
    } else {
      out += text[i]!;
      i += 1;
    }
  }
  return out.replace(/ {2,}/gu, ' ').trim();
}

/**
 * Latin renderings of a title with ideographs: Japanese (when it has kana, or may be Japanese) and
 * Chinese pinyin (when it has no kana). Empty when the title has no ideographs.
 */
export function hanRenderings(title: string): string[] {
  const nfkc = title.normalize('NFKC');
  if (!HAN_RE.test(nfkc)) return [];
  const out = [read(nfkc, JA_WORDS, JA_KEYS)];
  if (!KANA_RE.test(nfkc)) out.push(read(nfkc, PINYIN, ZH_KEYS));
  return [...new Set(out)].filter((r) => r !== nfkc);
}

