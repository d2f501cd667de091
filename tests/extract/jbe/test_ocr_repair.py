"""The structure-driven repair of OCR'd booklet lines: hand-written noisy strings, and an
OCR-noise generator that corrupts clean booklet text with tesseract's typical confusions."""

from __future__ import annotations

import random

from buildds.extract.jbe.ocr_option_lines import (
    repair_options,
    stem_criterion,
    stem_marks,
    truth_row,
)
from buildds.extract.jbe.ocr_repair import (
    repair_header,
    repair_label,
    repair_ocr_lines,
    repair_slots,
)

CLEAN = [
    "〔第１問〕（配点：２）",
    "成年後見制度に関する次のアからオまでの各記述のうち、誤っているものを組み合わせたものは、",
    "後記１から５までのうちどれか。（解答欄は、［No.１］）",
    "ア．精神上の障害により事理を弁識する能力を欠く常況にある者について保佐開始の申立てがさ",
    "れたときは、家庭裁判所は、保佐開始の審判をすることができる。",
    "イ．工作物の設置に瑕疵があるときは、力を尽くしても責任を負う。",
    "ウ．任意後見契約が登記されている場合には、家庭裁判所は、後見開始の審判をすることができない。",
    "エ．成年被後見人が日用品の購入をしたときは、成年後見人は、その契約を取り消すことができる。",
    "オ．保佐人の同意を得なければならない行為について、家庭裁判所は許可を与えることができる。",
    "１．ア イ ２．ア エ ３．イ ウ ４．ウ オ ５．エ オ",
    "〔第２問〕（配点：２）",
    "信教の自由に関する次のアからウまでの各記述について、正しいものには○、誤っているものには",
    "×を付した場合の組合せを、後記１から８までの中から選びなさい。（解答欄は、［No.２］）",
    "ア．内閣総理大臣が神社を参拝する行為は、違憲である。",
    "イ．信教の自由は、寛容であることを要請する。",
    "ウ．宗教上の祝典への参加を強制することは、違憲である。",
    "１．ア○ イ○ ウ○ ２．ア○ イ○ ウ× ３．ア○ イ× ウ○",
    "４．ア○ イ× ウ× ５．ア× イ○ ウ○ ６．ア× イ○ ウ×",
    "７．ア× イ× ウ○ ８．ア× イ× ウ×",
    "〔第10問〕（配点：３）",
    "次のアからウまでの各記述について、それぞれ正しい場合には１を、誤っている場合には２を選び",
    "なさい。（解答欄は、アからウの順に［No.３］から［No.５］）",
    "ア．甲は、乙に対し、１００万円を支払った。［No.３］",
    "イ．ａ．Ａ説によれば、正しい。［No.４］",
    "ウ．工場の所有者は、責任を負う。［No.５］",
]


def test_clean_text_is_left_alone() -> None:
    out, changes = repair_ocr_lines(CLEAN)
    assert out == CLEAN and changes == []


def test_headers_with_wrong_brackets_and_digits() -> None:
    assert repair_header("（第３問〕（配点：２）", 3) == ("〔第３問〕（配点：２）", 3)
    assert repair_header("第２問〕］（配点：2）", 2) == ("〔第２問〕（配点：２）", 2)
    assert repair_header("［第l2問］（配点：３）", 12) == ("〔第12問〕（配点：３）", 12)
    assert repair_header("〔第1O問〕（配点：２）", None) == ("〔第10問〕（配点：２）", 10)
    assert repair_header("〔第５間〕（配占：３）", 5) == ("〔第５問〕（配点：３）", 5)
    assert repair_header("第一に、配点は", 4) is None  # prose
    # digits read as digits are trusted: question 11's header lost, 12 stays 12
    assert repair_header("〔第12問〕（配点：２）", 11) == ("〔第12問〕（配点：２）", 12)


def test_slot_markers() -> None:
    assert repair_slots("（解答欄は、【No. 3]）")[0] == "（解答欄は、［No.３］）"
    assert repair_slots("［N0.14］ )")[0] == "［No.14］）"
    assert repair_slots("［No.l5］", 15) == ("［No.15］", 16)
    assert repair_slots("（解答欄は、 LNo.10] )")[0] == "（解答欄は、 ［No.10］）"


def test_labels_only_where_expected() -> None:
    assert repair_label("工．成年被後見人が", "エ") == "エ．成年被後見人が"
    assert repair_label("エエ．成年被後見人が", "エ") == "エ．成年被後見人が"
    assert repair_label("才.保佐人の", "オ") == "オ．保佐人の"
    assert repair_label("ｱ．法人は", "ア") == "ア．法人は"
    assert repair_label("工．成年被後見人が", "ウ") is None  # not the label expected next
    assert repair_label("工、作物", "エ") is None  # 工 needs a real dot to be a label
    assert repair_label("力を尽くしても", "カ") is None


def test_option_lines() -> None:
    assert repair_options("１．アイ２．アエエ３．イウ４．イエエ５．ウオ") == (
        "１．ア イ ２．ア エ ３．イ ウ ４．イ エ ５．ウ オ")
    assert repair_options("１．アとイ２．アとウ") == "１．アとイ ２．アとウ"
    assert repair_options("１．工オ２．アウ") == "１．エ オ ２．ア ウ"
    assert repair_options("１．甲は乙に対し、代金を支払った。") is None  # a numbered statement
    assert repair_options("４．アイ", first=1) is None  # not the option expected next


def test_truth_rows_follow_the_table_order() -> None:
    assert truth_row("アメイ○ウＯ", 3, 5) == "ア× イ○ ウ○"
    assert truth_row("ア了○イウＯ", 3, 3) == "ア○ イ× ウ○"  # イ unreadable: the order
    assert truth_row("ア○イウＯ", 3, 5) is None  # ア read ○ where option 5 has ×
    assert repair_options("４、ア○イベウ x ５．アメイ○ウ○Ｏ６．アメイ○ウメ", 4, 3) == (
        "４．ア○ イ× ウ× ５．ア× イ○ ウ○ ６．ア× イ○ ウ×")


def test_stem_marks_also_across_a_line_break() -> None:
    assert stem_marks("", "正しいものには○，誤っているものにはＸメを付した") == (
        "正しいものには○，誤っているものには×を付した")
    assert stem_marks("…正しいものには○，誤っているものに", "はＸメを付した") == "は×を付した"
    assert stem_marks("", "メを付した") == "メを付した"  # no "ものには" before: prose


def test_the_stem_criterion_one_character_off() -> None:
    assert stem_criterion("のうち，癌っているものを組み合わせたものは") == (
        "のうち，誤っているものを組み合わせたものは")
    assert stem_criterion("のうち，誤っつているものを組み合わせ") == "のうち，誤っているものを組み合わせ"
    assert stem_criterion("照らし止しいものはどれか") == "照らし正しいものはどれか"
    assert stem_criterion("正しい場合ーーには１を、誤っている場合には２を") == (
        "正しい場合には１を、誤っている場合には２を")
    for other in ("のうち，成立しないものを組み合わせ", "のうち、新しいものはどれか",
                  "当てはまるものを２個", "誤っているものを組み合わせ"):
        assert stem_criterion(other) == other


def test_options_one_by_one_and_dust() -> None:
    assert repair_options("１．アウ．。２．、アエエ３．イウ４．イオ：５．ウェエ") == (
        "１．ア ウ ２．ア エ ３．イ ウ ４．イ オ ５．ウ エ")
    assert repair_options("１ユ．アイ２．アオ") == "１．ア イ ２．ア オ"
    assert repair_options("１］．アイ。２．アウ。") == "１．ア イ ２．ア ウ"
    # a lost label keeps its option as read; the others are repaired
    assert repair_options("１．アイ２．アエ３．イオ４．ウ５．ウオ") == (
        "１．ア イ ２．ア エ ３．イ オ ４．ウ ５．ウ オ")
    lines = ["〔第16問〕（配点：２）", "次のアからオまでの各記述のうち、誤っているものを組み合わせた",
             "_ものは、後記１から５までのうちどれか。（解答", "欄は、［No.16］）",
             "”ーア．債務者は、責任を負わない。", "ーイ．過失相殺はされない。", "１．アイ２．アウ"]
    out, _ = repair_ocr_lines(lines)
    assert out[2].startswith("ものは") and out[4:] == [
        "ア．債務者は、責任を負わない。", "イ．過失相殺はされない。", "１．ア イ ２．ア ウ"]


def test_numbered_statements_and_a_misread_marker_opening() -> None:
    lines = ["〔第17問〕（配点：２）", "次の各【記述】のうち、正しいものはどれか。（解谷欄は、［No.28］）",
             "1.Ａ説に対しては、批判がある。", "2.Ａ説によれば、", "余地はない。",
             "4 .Ｂ説は、根拠としている。", "3.Ｂ説からは、故意がない。", "４、甲と乙は、共謀した。"]
    out, _ = repair_ocr_lines(lines)
    assert out[1].endswith("（解答欄は、［No.28］）")
    broken = ["〔第２問〕（配点：２）", "正しいものはどれか。（解答柚", "は、［No.２］）"]
    assert repair_ocr_lines(broken)[0][1:] == ["正しいものはどれか。（解答欄", "は、［No.２］）"]
    split = ["〔第２問〕（配点：２）", "正しいものはどれか。（解答", "欄は、［No.２］）"]
    assert repair_ocr_lines(split)[0] == split
    assert out[2:] == ["１．Ａ説に対しては、批判がある。", "２．Ａ説によれば、", "余地はない。",
                       "4 .Ｂ説は、根拠としている。",  # not the number expected next: as read
                       "３．Ｂ説からは、故意がない。", "４．甲と乙は、共謀した。"]


def test_speaker_turns_named_in_the_stem() -> None:
    lines = ["〔第９問〕（配点：２）", "次の対話は、教授と学生の対話である。（解答欄は、［No.９］）",
             "教授．質問です。", "ア．回答です。", "教授、ところで、次の質問です。", "イ．回答です。"]
    out, _ = repair_ocr_lines(lines)
    assert out[4] == "教授．ところで、次の質問です。"
    plain = ["〔第９問〕（配点：２）", "次の記述について。（解答欄は、［No.９］）",
             "ア．甲は", "教授、乙は…"]  # no dialogue in the stem: left as read
    assert repair_ocr_lines(plain)[0][3] == "教授、乙は…"


# --------------------------------------------------------------------------- noise
_LABEL_NOISE = {"エ": ["工", "エエ"], "オ": ["才"], "ア": ["ｱ"], "イ": ["ィ"]}
_DOT_NOISE = [".", "．", ","]
_MARK_NOISE = {"○": ["〇", "Ｏ", "○Ｏ"], "×": ["メ", "Ｘ", "x", "ベ"]}


def corrupt(line: str, rng: random.Random) -> str:
    """What tesseract makes of a clean line: look-alike labels, lost tab-stop gaps, wrong
    brackets and marks — the confusions seen on the scanned booklets."""
    if line.startswith("〔第"):
        opened = rng.choice(["（", "［", "", "〔"]) + line[1:].replace("問", rng.choice("問間"), 1)
        return opened.replace("〕", rng.choice(["〕］", "］", "〕"]), 1)
    if line[:1] in "アイウエオ" and line[1:2] == "．":
        lab = rng.choice(_LABEL_NOISE.get(line[0], [line[0]]) + [line[0]])
        # a kanji look-alike is taken for a label only before a real dot (see repair_label)
        dots = _DOT_NOISE if lab[0] not in "工才" else [".", "．"]
        return lab + rng.choice(dots) + line[2:]
    if line[:1] in "１４７" and ("ア" in line[:4]):
        out = line.replace(" ", "")
        for mark, noise in _MARK_NOISE.items():
            out = "".join(rng.choice(noise) if c == mark else c for c in out)
        return out.replace("エ", rng.choice(["エ", "工", "エエ"]))
    return line.replace("［No.", rng.choice(["【No. ", "[No.", "［N0."]))


def test_repair_restores_the_structure_of_corrupted_text() -> None:
    for seed in range(40):
        rng = random.Random(seed)
        noisy = [corrupt(line, rng) for line in CLEAN]
        out, _ = repair_ocr_lines(noisy)
        assert out == CLEAN, (seed, [(a, b) for a, b in zip(out, CLEAN) if a != b])
