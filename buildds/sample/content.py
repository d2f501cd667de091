"""The bundled sample exam: 令和7年 (2025) 短答式 in 憲法, 民法 and 刑法.

The questions are **original**, written for buildds in the style of the bar exam (the
wording of stems, markers and options follows the official booklets of 2022 onwards); they
are not the Ministry of Justice's questions and are not an official exam. The answers are
correct under the law in force in 2025 as far as the authors know, but the sample exists to
test the pipeline, not to study from.

Each subject has six or seven questions and at least ten answer slots, so the slot numbers
reach the half-width ``［No.10］``. Between them the subjects cover every format the booklet
parser has to handle (see :data:`FORMATS` and the ``format`` of each question):

* combination of correct/wrong statements ア〜オ, options ``１．ア イ ２．ア エ …`` on one line;
* ○× table over three statements, eight options three to a line;
* one 1/2 slot per statement (``アからウの順に［No.５］から［No.７］``), each statement ending
  in its own ``［No.n］``, in 憲法 also with nested ａ．/ｂ． views;
* choose two (``［No.１］、［No.２］順不同``);
* lead-in blocks ``【事 例】``, ``【見 解】``, ``【会 話】`` and ``【語句群】`` with blanks （ａ）…;
* numbered statements ``１．…`` (刑法) with a single answer or two;
* a remark ``なお、…。`` in the stem;
* a ``［No.`` marker broken across lines and questions (even option grids) that run across a
  page break — those come out of the layout and are checked by the tests.
"""

from __future__ import annotations

from collections.abc import Sequence

from buildds.sample.model import Block, Item, Question, SlotMode, no_marker

__all__ = ["FORMATS", "QUESTIONS", "SUBJECT_CODES", "YEAR", "full_marks"]

YEAR = 2025
SUBJECT_CODES = ("kenpo", "minpo", "keiho")

KATAKANA = "アイウエオカキクケコ"
NUMBERS = "１２３４５６７８９"
PARTS = "ａｂ"

#: ○× table for three statements: the eight options, set three to a line on 14-character stops
MARU_BATSU = tuple(
    f"ア{a}　イ{b}　ウ{c}"
    for a in "○×" for b in "○×" for c in "○×"
)
MARU_BATSU_TAB = 14
#: combination options ``ア　イ`` sit on 7-character stops, all five on one line
COMBINATION_TAB = 7

NOTE_PARTIAL_3 = "2問正解で部分点1点"
NOTE_PARTIAL_5 = "4問正解で部分点2点"
NOTE_UNORDERED = "順不同（部分点なし）"


def _pairs(*pairs: str) -> tuple[str, ...]:
    """Combination options from two-letter strings: ``"アイ"`` → ``"ア　イ"``."""
    return tuple(f"{p[0]}　{p[1]}" for p in pairs)


class _Builder:
    """Numbers questions and answer slots as they are added, so they always run 1..N."""

    def __init__(self) -> None:
        self.questions: list[Question] = []
        self.next_slot = 1

    def _add(self, *, points: int, stem: str, mode: SlotMode, n_slots: int,
             answers: Sequence[str], statements: Sequence[Item] = (),
             lead_ins: Sequence[Block] = (), options: Sequence[str] = (), option_tab: int = 0,
             remark: str | None = None, note: str | None = None, format: str = "") -> None:
        slots = tuple(range(self.next_slot, self.next_slot + n_slots))
        self.next_slot += n_slots
        if len(answers) != n_slots:
            raise ValueError(f"question {len(self.questions) + 1}: {len(answers)} answers "
                             f"for {n_slots} slots")
        self.questions.append(Question(
            number=len(self.questions) + 1, points=points, stem=stem, slot_mode=mode,
            slots=slots, answers=tuple(answers), statements=tuple(statements),
            lead_ins=tuple(lead_ins), options=tuple(options), option_tab=option_tab,
            remark=remark, note=note, format=format))

    def single(self, *, points: int = 2, stem: str, answer: str,
               statements: Sequence[str] = (), numbered: bool = False,
               lead_ins: Sequence[Block] = (), options: Sequence[str] = (),
               option_tab: int = 0, remark: str | None = None, format: str = "") -> None:
        labels = NUMBERS if numbered else KATAKANA
        items = [Item(labels[i], text) for i, text in enumerate(statements)]
        self._add(points=points, stem=stem, mode="single", n_slots=1, answers=[answer],
                  statements=items, lead_ins=lead_ins, options=options,
                  option_tab=option_tab, remark=remark, format=format)

    def per_statement(self, *, points: int, stem: str, answers: str,
                      statements: Sequence[str | tuple[str, str]], note: str,
                      lead_ins: Sequence[Block] = (), format: str = "") -> None:
        items = []
        for i, st in enumerate(statements):
            slot = self.next_slot + i
            if isinstance(st, tuple):  # a pair of views ａ．/ｂ．
                parts = (Item("ａ", st[0]), Item("ｂ", st[1], slot=slot))
                items.append(Item(KATAKANA[i], "", slot=slot, parts=parts))
            else:
                items.append(Item(KATAKANA[i], st, slot=slot))
        self._add(points=points, stem=stem, mode="per_statement", n_slots=len(items),
                  answers=list(answers), statements=items, lead_ins=lead_ins, note=note,
                  format=format)

    def choose_two(self, *, points: int = 3, stem: str, answers: tuple[str, str],
                   statements: Sequence[str], format: str = "") -> None:
        items = [Item(NUMBERS[i], text) for i, text in enumerate(statements)]
        self._add(points=points, stem=stem, mode="unordered", n_slots=2,
                  answers=sorted(answers), statements=items, note=NOTE_UNORDERED,
                  format=format)


# =========================================================================== 憲法
def _kenpo() -> list[Question]:
    b = _Builder()
    b.per_statement(
        points=3, note=NOTE_PARTIAL_3, answers="121",
        format="per-statement 1/2, nested ａ．/ｂ． views (批判)",
        stem="表現の自由に関する次のアからウまでの各記述について、ｂの見解がａの見解の批判となってい"
             "る場合には１を、そうでない場合には２を選びなさい。",
        statements=[
            (("表現の自由が他の人権に比べて優越的地位を有するのは、自由な言論を通じて国民が政治的"
              "意思決定に参加するという自己統治の価値を担うからであり、その規制立法の合憲性は厳格に"
              "審査されるべきである。"),
             ("表現の自由の価値を自己統治の価値に限ると、政治との関わりが薄い芸術的表現や学術的表"
              "現の保障が弱まることになりかねず、個人が言論活動を通じて自己の人格を形成し発展させる"
              "という自己実現の価値を軽視することになる。")),
            (("表現の内容に着目した規制は、特定の思想や情報が思想の自由市場に登場すること自体を妨"
              "げるおそれが大きいから、表現の時、場所、方法に着目した規制よりも厳格に審査されるべ"
              "きである。"),
             ("表現の内容に着目した規制は、政府が自らに不都合な言論を選び出して排除しようとする動"
              "機に基づいている危険性が高い。")),
            (("事前抑制は、表現が思想の自由市場に登場する前にこれを抑止するものであり、事後規制に"
              "比べて表現の自由に対する制約の程度が大きいから、原則として許されない。"),
             ("事後規制であっても、刑罰による制裁が重い場合には、表現者が萎縮して表現活動そのもの"
              "を差し控えることになるから、事前抑制と事後規制との間に制約の程度の本質的な差はない。")),
        ])
    b.single(
        answer="4", options=MARU_BATSU, option_tab=MARU_BATSU_TAB,
        format="○× table, 8 options three to a line; page footer between two option lines",
        stem="信教の自由及び政教分離に関する次のアからウまでの各記述について、最高裁判所の判例の趣"
             "旨に照らして、正しいものには○、誤っているものには×を付した場合の組合せを、後記１から"
             "８までの中から選びなさい。",
        statements=[
            ("宗教法人に対する解散命令の制度は、専ら宗教法人の世俗的側面を対象とし、かつ、専ら世"
             "俗的目的によるものであって、解散命令によって信者の宗教上の行為が禁止されたり制限さ"
             "れたりする法的効果を伴うものではなく、解散に伴って信者の宗教上の行為に何らかの支障"
             "が生ずることがあるとしても、それは間接的で事実上のものにとどまるから、信教の自由を"
             "侵害するものではない。"),
            ("公立の高等専門学校が、信仰上の理由から必修科目である体育の実技の履修を拒否した学生"
             "に対し、レポートの提出等の代替措置について何ら検討することなく、原級留置処分をした"
             "上で退学処分をしたとしても、学生の側で信仰を変えれば処分を避けることができたのであ"
             "るから、その処分は裁量権の範囲を逸脱するものとはいえない。"),
            ("地方公共団体が、神社の挙行する例大祭に際し、その神社に対して玉串料を公金から支出し"
             "た行為は、その目的が戦没者の慰霊及び遺族の慰謝という世俗的なものである以上、一般人"
             "がこれを社会的儀礼の一つにすぎないと評価しているかどうかにかかわらず、宗教とのかか"
             "わり合いが相当とされる限度を超えるものとはいえず、憲法第２０条第３項に違反しない。"),
        ])
    b.per_statement(
        points=3, note=NOTE_PARTIAL_3, answers="112",
        format="per-statement 1/2",
        stem="国会に関する次のアからウまでの各記述について、それぞれ正しい場合には１を、誤ってい"
             "る場合には２を選びなさい。",
        statements=[
            ("衆議院が解散されたときは、参議院は同時に閉会となるが、内閣は、国に緊急の必要がある"
             "ときは、参議院の緊急集会を求めることができる。"),
            ("両議院の議員は、法律の定める場合を除いては、国会の会期中逮捕されず、会期前に逮捕さ"
             "れた議員は、その議院の要求があれば、会期中これを釈放しなければならない。"),
            ("予算は、先に衆議院に提出しなければならないから、これと同様に、条約の締結に必要な国"
             "会の承認を求める案件についても、参議院に先に提出することはできない。"),
        ])
    b.single(
        answer="2", options=MARU_BATSU, option_tab=MARU_BATSU_TAB,
        format="【見 解】 lead-in + ○× table",
        stem="国会の地位に関する次の【見解】についての後記アからウまでの各記述について、正しいもの"
             "には○、誤っているものには×を付した場合の組合せを、後記１から８までの中から選びなさ"
             "い。",
        lead_ins=[Block("見解", paragraphs=(
            ("憲法第４１条が国会を「国権の最高機関」と定めているのは、国会が主権者である国民に"
             "よって直接選ばれた議員で構成され、国政の中心に位置することを強調する政治的美称にす"
             "ぎず、この規定から直ちに具体的な法的権能が導かれるものではない。"),
        ))],
        statements=[
            ("【見解】によれば、国政全般を統括する権能が国会にあることを根拠として、憲法や法律に"
             "明文の規定がない事項について国会の権限を推定することはできない。"),
            ("【見解】に対しては、国会の地位を軽視するものであり、三権のいずれに属するか明らかで"
             "ない権限の帰属を決める手掛かりが失われるとの批判がある。"),
            ("【見解】によれば、国会は、その最高機関性を根拠として、裁判所の確定判決の当否を調査"
             "し、これを是正するための決議をすることができる。"),
        ])
    b.per_statement(
        points=3, note=NOTE_PARTIAL_3, answers="121",
        format="per-statement 1/2, nested ａ．/ｂ． views (根拠), slots cross No.10",
        stem="司法権に関する次のアからウまでの各記述について、ｂの見解がａの見解の根拠となってい"
             "る場合には１を、そうでない場合には２を選びなさい。",
        statements=[
            ("具体的な争訟を離れて、抽象的に法令の合憲性を判断することは、裁判所の権限に属しない。",
             ("司法権は、当事者間の具体的な権利義務又は法律関係の存否に関する紛争を前提として、法"
              "を適用してこれを終局的に解決する国家作用である。")),
            (("衆議院の解散のように直接国家統治の基本に関する高度に政治性のある国家行為は、法律上"
              "の争訟として裁判所による法律的な判断が理論的には可能であっても、司法審査の対象外で"
              "ある。"),
             ("裁判所は、憲法に違反する国家行為があれば、その政治性の高低にかかわらず、違憲と判断"
              "しなければならない。")),
            (("自律的な法規範を有する団体の内部的な紛争については、一般市民法秩序と直接の関係を有"
              "しない限り、司法審査が及ばない。"),
             ("団体の自律性を尊重し、その内部規律の問題は団体の自主的、自律的な解決に委ねるのが適"
              "当である。")),
        ])
    b.per_statement(
        points=3, note=NOTE_PARTIAL_3, answers="121",
        format="per-statement 1/2, ［No. broken across lines",
        stem="内閣に関する次のアからウまでの各記述について、それぞれ正しい場合には１を、誤ってい"
             "る場合には２を選びなさい。",
        statements=[
            ("内閣総理大臣は、国会議員の中から国会の議決で指名され、国務大臣は、その過半数が国会"
             "議員の中から選ばれなければならない。"),
            ("内閣総理大臣は、任意に国務大臣を罷免することができるが、その罷免には閣議の決定を経"
             "なければならない。"),
            ("衆議院議員総選挙の後に初めて国会の召集があったときは、それまでの間に衆議院で内閣不"
             "信任の決議案が可決されていなかった場合でも、内閣は、総辞職しなければならない。"),
        ])
    return b.questions


# =========================================================================== 民法
def _minpo() -> list[Question]:
    b = _Builder()
    b.single(
        answer="5", options=_pairs("アイ", "アエ", "イウ", "ウオ", "エオ"),
        option_tab=COMBINATION_TAB, format="combination ア〜オ (誤っているもの), options on one line",
        stem="意思表示に関する次のアからオまでの各記述のうち、誤っているものを組み合わせたものは、"
             "後記１から５までのうちどれか。",
        statements=[
            ("相手方と通じてした虚偽の意思表示は、無効であるが、その無効は、善意の第三者に対抗す"
             "ることができない。"),
            ("意思表示は、表意者がその真意ではないことを知ってしたときであっても、そのためにその"
             "効力を妨げられないが、相手方がその意思表示が表意者の真意ではないことを知り、又は知"
             "ることができたときは、その意思表示は、無効となる。"),
             "詐欺による意思表示の取消しは、善意でかつ過失がない第三者に対抗することができない。",
            ("相手方に対する意思表示について第三者が強迫を行った場合には、相手方がその事実を知り、"
             "又は知ることができたときに限り、表意者は、その意思表示を取り消すことができる。"),
            ("錯誤が表意者の重大な過失によるものであった場合には、相手方が表意者に錯誤があること"
             "を知っていたときであっても、表意者は、錯誤を理由としてその意思表示を取り消すことが"
             "できない。"),
        ])
    b.single(
        answer="1", options=_pairs("アイ", "アウ", "イエ", "ウオ", "エオ"),
        option_tab=COMBINATION_TAB, format="combination ア〜オ (正しいもの), options on one line",
        stem="時効に関する次のアからオまでの各記述のうち、判例の趣旨に照らし正しいものを組み合わせ"
             "たものは、後記１から５までのうちどれか。",
        statements=[
            "時効の利益は、あらかじめ放棄することができない。",
            ("債務者が消滅時効の完成後に債権者に対して債務の承認をした場合には、時効完成の事実を"
             "知らなかったときであっても、その後その時効を援用することは許されない。"),
             "物上保証人は、被担保債権の消滅時効を援用することができない。",
            ("裁判上の請求がされた場合において、確定判決によって権利が確定したときは、時効は、そ"
             "の請求をした時から新たにその進行を始める。"),
             "催告があったときは、その時から１年を経過するまでの間は、時効は、完成しない。",
        ])
    b.single(
        answer="4", options=_pairs("アウ", "アエ", "イエ", "イオ", "ウオ"),
        option_tab=COMBINATION_TAB, format="【事 例】 lead-in + combination, remark なお、…",
        stem="次の【事例】に関する後記アからオまでの各記述のうち、判例の趣旨に照らし誤っているもの"
             "を組み合わせたものは、後記１から５までのうちどれか。",
        remark="なお、民法第９４条第２項の類推適用については考慮しないものとする。",
        lead_ins=[Block("事例", paragraphs=(
            ("Ａは、Ｂに対し、Ａが所有する甲建物を代金１０００万円で売却して引き渡したが、所有"
             "権移転登記はまだされていない。その後、Ａは、甲建物をＣにも売却した。"),
        ))],
        statements=[
            ("Ｃが所有権移転登記を備えた場合には、ＢとＣのいずれが先に代金を支払っていたかにかか"
             "わらず、Ｂは、Ｃに対し、甲建物の所有権の取得を対抗することができない。"),
            ("Ｃが、ＡＢ間の売買の事実を知りながら甲建物を買い受けたにすぎない場合であっても、Ｃ"
             "は、民法第１７７条の第三者に当たらない。"),
            ("Ｃが、Ｂを害する目的で、ＡＢ間の売買の事実を知りながら甲建物を著しく低い価格で買い"
             "受けた背信的悪意者である場合には、Ｂは、登記がなくても、Ｃに対し、甲建物の所有権の"
             "取得を対抗することができる。"),
            ("Ｃが所有権移転登記を備えたため、Ｂが甲建物の所有権を取得することができなくなった場"
             "合には、Ｂは、Ａに対し、債務不履行に基づく損害賠償を請求することができる。"),
            ("Ｂは、甲建物を権原なく占拠するＤに対して明渡しを請求するには、甲建物の所有権移転登"
             "記を備えていなければならない。"),
        ])
    b.per_statement(
        points=3, note=NOTE_PARTIAL_3, answers="112",
        format="per-statement 1/2",
        stem="債権者代位権に関する次のアからウまでの各記述について、それぞれ正しい場合には１を、誤"
             "っている場合には２を選びなさい。",
        statements=[
            ("債権者は、その債権の期限が到来しない間は、保存行為を除き、被代位権利を行使すること"
             "ができない。"),
            ("債権者は、被代位権利を行使する場合において、被代位権利の目的が可分であるときは、自"
             "己の債権の額の限度においてのみ、被代位権利を行使することができる。"),
            ("債権者が被代位権利を行使した場合には、債務者は、被代位権利について、自ら取立てその"
             "他の処分をすることができなくなる。"),
        ])
    b.single(
        answer="4", options=_pairs("アイ", "アオ", "イエ", "ウエ", "ウオ"),
        option_tab=COMBINATION_TAB, format="combination ア〜オ (判例の趣旨に照らし誤っているもの)",
        stem="不法行為に関する次のアからオまでの各記述のうち、判例の趣旨に照らし誤っているものを組"
             "み合わせたものは、後記１から５までのうちどれか。",
        statements=[
            ("未成年者が他人に損害を加えた場合において、自己の行為の責任を弁識するに足りる知能を"
             "備えていなかったときは、その未成年者は、その行為について賠償の責任を負わない。"),
            ("被用者が使用者の事業の執行について第三者に損害を加え、使用者がその損害を賠償したと"
             "きは、使用者は、被用者に対し、損害の公平な分担という見地から信義則上相当と認められ"
             "る限度において求償することができる。"),
            ("人の生命又は身体を害する不法行為による損害賠償請求権は、被害者又はその法定代理人が"
             "損害及び加害者を知った時から３年間行使しないときは、時効によって消滅する。"),
            ("交通事故の被害者が死亡した場合において、その逸失利益を算定するに当たっては、被害者"
             "の相続人が受け取った生命保険金を損益相殺として控除しなければならない。"),
            ("数人が共同の不法行為によって他人に損害を加えたときは、各自が連帯してその損害を賠償"
             "する責任を負う。"),
        ])
    b.choose_two(
        answers=("2", "5"), format="choose two, numbered statements",
        stem="売買に関する次の１から５までの各記述のうち、正しいものを２個選びなさい。",
        statements=[
            "売買契約に関する費用は、特約がない限り、買主が全額を負担する。",
            ("買主が売主に手付を交付したときは、買主はその手付を放棄し、売主はその倍額を現実に提"
             "供して、契約の解除をすることができるが、その相手方が契約の履行に着手した後は、この"
             "限りでない。"),
            ("売買の目的物の引渡しと同時に代金を支払うべきときであっても、その代金は、買主の住所"
             "において支払わなければならない。"),
            ("売主が種類又は品質に関して契約の内容に適合しない目的物を買主に引き渡した場合におい"
             "て、買主がその不適合を知った時から１年以内にその旨を売主に通知しないときは、売主が"
             "引渡しの時にその不適合を知っていたときであっても、買主は、その不適合を理由として履"
             "行の追完の請求をすることができない。"),
            ("他人の権利を売買の目的としたときは、売主は、その権利を取得して買主に移転する義務を"
             "負う。"),
        ])
    b.single(
        answer="3", options=MARU_BATSU, option_tab=MARU_BATSU_TAB,
        format="○× table, slot No.10",
        stem="相続に関する次のアからウまでの各記述について、正しいものには○、誤っているものには×"
             "を付した場合の組合せを、後記１から８までの中から選びなさい。",
        statements=[
            ("相続の放棄をした者は、その相続に関しては、初めから相続人とならなかったものとみなさ"
             "れる。"),
             "被相続人の子が相続の放棄をしたときは、その者の子がこれを代襲して相続人となる。",
            ("相続人が数人あるときは、限定承認は、共同相続人の全員が共同してのみこれをすることが"
             "できる。"),
        ])
    return b.questions


# =========================================================================== 刑法
def _keiho() -> list[Question]:
    b = _Builder()
    b.choose_two(
        answers=("1", "4"), format="choose two, numbered statements as paragraphs",
        stem="正当防衛に関する次の１から５までの各記述を判例の立場に従って検討した場合、正しいもの"
             "を２個選びなさい。",
        statements=[
            ("甲は、乙から殴り掛かられたため、自己の身を守るために乙を突き飛ばした。この場合、甲"
             "が乙に対する攻撃の意思を併せ持っていたとしても、そのことのみによって甲の防衛の意思"
             "が否定されることはない。"),
            ("甲は、乙からの侵害を予期した上、その機会を利用して積極的に乙に対して加害行為をする"
             "意思で侵害に臨み、乙を殴打した。この場合、乙の侵害は急迫性を失わないから、甲に正当"
             "防衛が成立し得る。"),
            ("甲は、乙から素手で殴られそうになったため、とっさに近くにあった包丁を示して「近寄る"
             "な。」と言って乙を脅した。この場合、素手の相手に対して刃物を用いている以上、甲の行"
             "為が防衛手段として相当性を有することはない。"),
            ("正当防衛は、自己の権利を防衛するためだけでなく、他人の権利を防衛するためにも成立し"
             "得る。"),
            ("甲は、乙による侵害が既に終了していたにもかかわらず、なお侵害が続いていると誤信して"
             "乙に反撃し、乙に傷害を負わせた。この場合、甲に正当防衛が成立する。"),
        ])
    b.single(
        answer="2", options=_pairs("アウ", "アエ", "イウ", "イオ", "エオ"),
        option_tab=COMBINATION_TAB, format="combination ア〜オ (正しいものの組合せ)",
        stem="次のアからオまでの各記述を判例の立場に従って検討した場合、正しいものの組合せは、後記"
             "１から５までのうちどれか。",
        statements=[
            ("甲は、乙宅に侵入して金品を物色していたところ、帰宅した乙に発見されたため、逮捕を免"
             "れる目的で乙を殴打し、乙に傷害を負わせた。この場合、甲に強盗致傷罪が成立する。"),
            ("甲は、スーパーマーケットの店内で、小型の商品を自己の手提げかばんに隠し入れたが、レ"
             "ジを通過する前に店員に発見された。この場合、甲に窃盗既遂罪が成立することはない。"),
            ("甲は、乙から預かっていた乙所有のカメラを、乙に無断で質入れした。この場合、甲に窃盗"
             "罪が成立する。"),
            ("甲は、他人のキャッシュカードを窃取した上、これを用いて現金自動預払機から現金を引き"
             "出した。この場合、甲には、キャッシュカードの窃盗罪とは別に、引き出した現金の窃盗罪"
             "が成立する。"),
            ("甲は、返済の意思も能力もないのにこれがあるように装って乙に借金を申し込み、乙から現"
             "金の交付を受けた。この場合、甲に窃盗罪が成立する。"),
        ])
    b.single(
        answer="2", format="【事 例】+【会 話】+【語句群】 fill-in blanks （ａ）…, remark なお、…",
        stem="学生Ａ及びＢは、次の【事例】における甲の罪責について、後記【会話】のとおり議論してい"
             "る。【会話】中の（ａ）から（ｄ）までの（　）内に後記【語句群】から適切なものを入れた場"
             "合、正しいものの組合せは、後記１から５までのうちどれか。",
        remark="なお、（ａ）から（ｄ）までの（　）内にはそれぞれ異なるものが入る。",
        lead_ins=[
            Block("事例", paragraphs=(
                ("甲は、乙を殺害する意思で、乙が飲む予定の水筒に毒物を混入したが、その量は致死量"
                 "に遠く及ばないものであった。乙はこれを飲んだが、体調に異常は生じなかった。"),
            )),
            Block("会話", speakers=(
                ("学生Ａ．", ("甲の行為については、結果発生の危険性がおよそないものとして（ａ）に"
                 "当たるかが問題となりますね。")),
                ("学生Ｂ．", ("私は、行為の時点において一般人が認識し得た事情及び行為者が特に認識"
                 "していた事情を基礎として、（ｂ）の見地から危険性の有無を判断すべき"
                 "だと考えます。この立場からは、一般人が毒物の量を認識し得なかった場"
                 "合には、甲に（ｃ）が成立し得ます。")),
                ("学生Ａ．", ("私は、裁判時までに判明した全ての客観的事情を基礎として、（ｄ）に危"
                 "険性を判断すべきだと考えます。")),
            )),
            Block("語句群", words=(
                  "ア．不能犯", "イ．中止犯", "ウ．一般人", "エ．行為者本人", "オ．殺人未遂罪",
                  "カ．殺人予備罪", "キ．事後的・科学的", "ク．事前的・主観的",
            )),
        ],
        options=(
            "ａ－ア　ｂ－ウ　ｃ－カ　ｄ－キ",
            "ａ－ア　ｂ－ウ　ｃ－オ　ｄ－キ",
            "ａ－イ　ｂ－エ　ｃ－オ　ｄ－ク",
            "ａ－ア　ｂ－エ　ｃ－オ　ｄ－キ",
            "ａ－イ　ｂ－ウ　ｃ－カ　ｄ－ク",
        ))
    b.per_statement(
        points=4, note=NOTE_PARTIAL_5, answers="12211",
        format="per-statement 1/2 over ア〜オ",
        stem="次のアからオまでの各記述を判例の立場に従って検討し、正しい場合には１を、誤っている場"
             "合には２を選びなさい。",
        statements=[
            "甲は、乙の住居に侵入して金品を窃取した。この場合、住居侵入罪と窃盗罪は牽連犯となる。",
            ("甲は、一個の行為で乙及び丙の二人を殺害した。この場合、甲には二個の殺人罪が成立し、"
             "両者は併合罪となる。"),
            ("甲は、公務員乙に供与する賄賂を得るため、丙から現金を窃取し、これを乙に供与した。こ"
             "の場合、窃盗罪と贈賄罪は牽連犯となる。"),
            ("甲は、偽造した有印私文書を行使して乙から現金をだまし取った。この場合、偽造有印私文"
             "書行使罪と詐欺罪は牽連犯となる。"),
            ("甲は、同一の機会に、同一の被害者乙に対し、数回にわたり暴行を加えて傷害を負わせた。"
             "この場合、甲には、包括して一個の傷害罪が成立する。"),
        ])
    b.single(
        answer="4", numbered=True, format="single choice, numbered statements",
        stem="故意に関する次の１から５までの各記述を判例の立場に従って検討した場合、正しいものはど"
             "れか。",
        statements=[
            ("甲は、乙を殺害するつもりで拳銃を発射したが、弾丸は乙に当たらず、通行人丙に当たって"
             "丙が死亡した。この場合、甲には、丙に対する殺人罪は成立しない。"),
            ("甲は、覚醒剤を麻薬であると誤信して所持した。この場合、甲には、覚醒剤所持罪の故意が"
             "認められないから、何らの罪も成立しない。"),
            ("甲は、他人の飼い犬を殺すつもりで石を投げたところ、石が飼い主乙に当たって乙が負傷し"
             "た。この場合、甲には、乙に対する傷害罪が成立する。"),
            ("甲は、乙を殺害するつもりで乙の首を絞め、乙が動かなくなったので死亡したものと誤信し"
             "て、犯行の発覚を防ぐ目的で乙を海岸の砂浜に運んで放置したところ、乙は砂を吸引して窒"
             "息死した。この場合、甲には、殺人罪が成立する。"),
            ("甲は、自己の行為が法律上許されないものであることを知らなかった。この場合、そのこと"
             "について相当の理由がなかったとしても、甲の故意が否定される。"),
        ])
    b.choose_two(
        answers=("3", "4"), format="choose two (誤っているもの), slots No.11/No.12",
        stem="放火の罪に関する次の１から５までの各記述を判例の立場に従って検討した場合、誤っている"
             "ものを２個選びなさい。",
        statements=[
            ("甲は、乙が所有し、乙のみが現に住居として使用している木造家屋に放火し、これを全焼さ"
             "せた。この場合、甲に現住建造物等放火罪が成立する。"),
            ("甲は、自己が所有する空き家に放火し、これを全焼させたが、公共の危険は生じなかった。"
             "この場合、甲に自己所有非現住建造物等放火罪は成立しない。"),
            ("甲は、深夜、無人の乙の店舗に放火したが、火は甲が持ち込んだ新聞紙を燃やしただけで、"
             "店舗には燃え移らなかった。この場合、甲に非現住建造物等放火罪の既遂が成立する。"),
            ("甲は、乙が所有する店舗兼倉庫の建物に放火したが、当時、建物内には乙の従業員丙がいた。"
             "この場合、甲が建物内に人はいないと思っていたとしても、甲には現住建造物等放火罪が成"
             "立する。"),
            ("放火の罪は、不特定又は多数の人の生命、身体又は財産に対する危険を生じさせる公共危険"
             "犯である。"),
        ])
    return b.questions


QUESTIONS: dict[str, tuple[Question, ...]] = {
    "kenpo": tuple(_kenpo()),
    "minpo": tuple(_minpo()),
    "keiho": tuple(_keiho()),
}


def full_marks(subject: str) -> int:
    """満点: the sum of the question points (the sample has fewer questions than the real exam)."""
    return sum(q.points for q in QUESTIONS[subject])


#: (subject, question, format, slots) rows, for documentation
FORMATS: tuple[tuple[str, int, str, str], ...] = tuple(
    (s, q.number, q.format, "、".join(no_marker(n) for n in q.slots))
    for s in SUBJECT_CODES for q in QUESTIONS[s]
)
