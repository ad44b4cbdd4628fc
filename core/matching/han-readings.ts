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

/** Common Japanese family names, so an artist written in kanji meets its romanized credit. */
const JA_SURNAMES: Record<string, string> = {
  佐藤: 'sato', 鈴木: 'suzuki', 高橋: 'takahashi', 田中: 'tanaka', 伊藤: 'ito', 渡辺: 'watanabe', 山本: 'yamamoto', 中村: 'nakamura',
  小林: 'kobayashi', 加藤: 'kato', 吉田: 'yoshida', 山田: 'yamada', 佐々木: 'sasaki', 山口: 'yamaguchi', 松本: 'matsumoto', 井上: 'inoue',
  木村: 'kimura', 林: 'hayashi', 斎藤: 'saito', 清水: 'shimizu', 山崎: 'yamazaki', 森: 'mori', 池田: 'ikeda', 橋本: 'hashimoto',
  阿部: 'abe', 石川: 'ishikawa', 山下: 'yamashita', 中島: 'nakajima', 石井: 'ishii', 小川: 'ogawa', 前田: 'maeda', 岡田: 'okada',
  長谷川: 'hasegawa', 藤田: 'fujita', 後藤: 'goto', 近藤: 'kondo', 村上: 'murakami', 遠藤: 'endo', 青木: 'aoki', 坂本: 'sakamoto',
  宇多田: 'utada', 浜崎: 'hamasaki', 米津: 'yonezu', 椎名: 'shiina', 久石: 'hisaishi', 星野: 'hoshino', 福山: 'fukuyama',
};

/** Common Chinese family names (pinyin), simplified and traditional. */
const ZH_SURNAMES: Record<string, string> = {
  王: 'wang', 李: 'li', 张: 'zhang', 張: 'zhang', 刘: 'liu', 劉: 'liu', 陈: 'chen', 陳: 'chen', 杨: 'yang', 楊: 'yang',
  黄: 'huang', 黃: 'huang', 赵: 'zhao', 趙: 'zhao', 周: 'zhou', 吴: 'wu', 吳: 'wu', 徐: 'xu', 孙: 'sun', 孫: 'sun', 朱: 'zhu',
  马: 'ma', 馬: 'ma', 胡: 'hu', 郭: 'guo', 何: 'he', 林: 'lin', 罗: 'luo', 羅: 'luo', 高: 'gao', 郑: 'zheng', 鄭: 'zheng',
  梁: 'liang', 谢: 'xie', 謝: 'xie', 宋: 'song', 唐: 'tang', 许: 'xu', 許: 'xu', 邓: 'deng', 鄧: 'deng', 韩: 'han', 韓: 'han',
  冯: 'feng', 馮: 'feng', 曹: 'cao', 彭: 'peng', 曾: 'zeng', 蔡: 'cai', 潘: 'pan', 田: 'tian', 董: 'dong', 袁: 'yuan', 于: 'yu',
  蒋: 'jiang', 蔣: 'jiang', 叶: 'ye', 葉: 'ye', 杜: 'du', 苏: 'su', 蘇: 'su', 魏: 'wei', 程: 'cheng', 吕: 'lv', 呂: 'lv',
  丁: 'ding', 沈: 'shen', 任: 'ren', 姚: 'yao', 卢: 'lu', 盧: 'lu', 钟: 'zhong', 鍾: 'zhong', 汪: 'wang', 范: 'fan', 邱: 'qiu',
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

const JA_TABLE: Record<string, string> = { ...JA_WORDS, ...JA_SURNAMES };
const ZH_TABLE: Record<string, string> = { ...PINYIN, ...ZH_SURNAMES };
const JA_KEYS = Object.keys(JA_TABLE).sort((a, b) => b.length - a.length);
const ZH_KEYS = Object.keys(ZH_TABLE).sort((a, b) => b.length - a.length);

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
 * Latin renderings of a title or a name with ideographs: Japanese (when it has kana, or may be Japanese) and
 * Chinese pinyin (when it has no kana). Empty when the title has no ideographs.
 */
export function hanRenderings(title: string): string[] {
  const nfkc = title.normalize('NFKC');
  if (!HAN_RE.test(nfkc)) return [];
  const out = [read(nfkc, JA_TABLE, JA_KEYS)];
  if (!KANA_RE.test(nfkc)) out.push(read(nfkc, ZH_TABLE, ZH_KEYS));
  return [...new Set(out)].filter((r) => r !== nfkc);
}

