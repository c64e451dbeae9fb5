"""The words of a bank's texts as the item-writing checks read them (:mod:`bot.kernel.checks`,
:mod:`bot.kernel.leaks`): function words per language, folding (case, Greek accents), stemmed
tokens and sentences. Pure."""

from __future__ import annotations

import functools
import re
import unicodedata

from bot.kernel.bank import Question

STOPWORDS = {
    "en": frozenset(
        """a an the of to in on at by for from with without and or but not no is are
        was were be been being it its this that these those as so than then into onto over under
        each every all any some one two does do did done what which who whom how why when where
        only also their there they them he she his her we you your i our us can may must will
        would should could such via per up down out off about across between more most less
        very just same other own""".split()
    ),
    "hi": frozenset(
        """का के की को में से पर है हैं था थे थी और या भी तो ही एक यह वह ये वे इस उस इन
        उन जो कि लिए साथ तक नहीं न कर करके करता करती करते किया किए गया गए होता होती होते हो
        कैसे क्या कौन सा सी किस किसी हर सब सभी अपने अपनी अपना बीच द्वारा जैसे जैसा बजाय करना
        इसलिए वाला वाले वाली रूप जाता जाती जाते जाना रहा रही रहे रहता रहती सकता सकती सकते
        होना होने""".split()
    ),
    "el": frozenset(
        """ο η το οι τα του της των τον την τους τις ενα ενας μια μιας ενος και ή η
        να σε στο στη στην στον στα στους στις στου στης απο με για ως προς κατα μετα χωρις
        δεν μη μην ειναι ηταν που ποιο ποια ποιος πως τι οτι αυτο αυτη αυτος αυτα αυτες
        αυτους αυτον αυτων κάθε καθε ολο ολα ολες ολοι μονο επισης αλλα ενω οπως οταν αν
        ομως""".split()
    ),
    "id": frozenset(
        """yang di ke dari dan atau dengan untuk pada dalam oleh adalah ialah ini itu tersebut
        sebagai juga tidak tak bukan belum akan sudah telah sedang masih karena sehingga agar
        supaya bagi atas antara setiap tiap semua seluruh para sebuah suatu seorang ada apa
        bagaimana mana berapa mengapa siapa kapan jika bila kalau maka namun tetapi tapi
        sedangkan serta lalu kemudian hanya saja pun lebih paling sangat seperti yaitu yakni
        dapat bisa harus perlu tanpa hingga sampai sejak selama tentang terhadap per nya""".split()
    ),
    "uk": frozenset(
        """і й та а але або чи не ні ж же що як який яка яке які якого якої якому якій яким
        яких цей ця це ці цього цієї цьому цій цим цих той те ті того тієї тому тим тих в у на
        з із зі зо до від за під над між при про по для без через перед після біля серед його
        її їх їхній їхня їхнє їхні їм їй йому ним нею них він вона воно вони ми ви я свій своя
        своє свої свого своєї своїх кожен кожна кожне кожні кожного кожної кожному кожній
        кожним кожних весь вся все всі усе усі всього усього всієї всіх усіх лише тільки також
        теж ще вже уже так тож бо щоб якщо коли де чому хто кого чим є був була було були бути
        буде може можна має мають один одна одне одні одного одної одному одній два дві тут
        там ніж саме ось більше більш менше інший інша інше інші іншого іншої іншому інших
        самий сама самі самого самої тощо навіть""".split()
    ),
    "ar": frozenset(
        """من إلى الى عن على في مع و أو ثم أن إن أنه أنها كان كانت يكون تكون هو هي هم هما
        هذا هذه ذلك تلك هذان هاتان التي الذي الذين اللذان اللتان ما ماذا لا لم لن ليس ليست قد
        كل لكل بكل وكل أي كيف متى أين لماذا هل بين عند عندما حتى أيضا فقط مثل كما لكن بل إذا
        أما فإن بعد قبل دون بدل غير نحو حسب ذو ذات ذي منها منه فيها فيه عليها عليه به بها له
        لها لهم إلا كي لأن لذا لذلك ولذا هنا هناك وهو وهي وفي ومن وعلى وإلى أي أحد إحدى أو
        بين وبين كلها كله معا أخرى آخر""".split()
    ),
    "ru": frozenset(
        """и в во не что как а то все всё так его её ее но да к ко у же за бы по только
        от о об обо из ли если уже или ни быть был была было были будет до для без под над
        при про через между перед после это этот эта эти этого этой этом этих эту тот та те
        того той том тех их им ним ней них нем нём он она оно они мы вы вас вам ваш ваша
        ваше ваши с со чем где когда какой какая какое какие каким какую который которая
        которое которые которого которой котором которых каждый каждая каждое каждые каждого
        каждой каждом каждому каждую каждых весь вся всех всем всего также тоже еще ещё лишь
        даже себя свой своя своё свое свои своих чтобы потому поэтому является один одна одно
        одного одной одном вместе сколько столько более менее очень""".split()
    ),
    "tr": frozenset(
        """ve veya ya da de ile ki bir bu şu o bunlar şunlar onlar bunu bunun buna bunda
        bundan bunları onu onun ona onda ondan onları için gibi kadar daha en çok az her hangi
        hangisi ne neyi nasıl neden mi mı mu mü değil ise ama fakat ancak yani olarak olan olur
        olduğu olması yalnızca sadece tüm bütün diğer başka aynı kendi yerine göre arasında
        üzerinde içinde sonra önce bile hem hiç bazı biri birlikte böylece çünkü eğer değildir
        dır dir dur dür tır tir tur tür ın in un ün nın nin nun nün ı i u ü a e ya ye yı yi yu
        yü ta te dan den tan ten lar ler ları leri lara lere larda lerde ların lerin""".split()
    ),
    "fa": frozenset(
        """و در به از که را با بی این آن برای تا یا هم نیز است هست نیست بود
        باشد شد شده شود شوند می نمی ها های ای ی اند ام ایم اید تر ترین هر همه یک چه چگونه
        کدام چرا کجا آیا اما ولی اگر پس چون روی زیر بر نه یعنی همان همین خود او ما شما
        کند کنند کرد کرده کردن دارد دارند داشت باید تواند بین میان جای وقتی چیزی فقط
        سازی""".split()
    ),
    "es": frozenset(
        """el la los las lo un una unos unas al del de a en con sin por para sobre entre hasta
        desde hacia y e o u ni pero sino no es son era eran fue fueron ser sido está están
        esta este esto estos estas ese esa eso esos esas que qué cual cuál cuales cuáles como
        cómo cuando cuándo donde dónde quien quién se su sus le les lo ya más muy también
        solo cada todo toda todos todas otro otra otros otras mismo misma así aunque mientras
        si porque""".split()
    ),
    "pt": frozenset(
        """o a os as um uma uns umas de do da dos das em no na nos nas num numa ao aos à às
        por pelo pela pelos pelas para com sem e ou mas não nem é são era eram foi foram ser
        sido está estão que qual quais quem como quando onde porque se seu sua seus suas
        este esta estes estas esse essa esses essas isso isto cada todo toda todos todas
        também só apenas mais menos muito muitos entre sobre sob até após já ainda mesmo
        mesma outro outra outros outras dele dela deles delas lhe lhes ele ela eles elas
        faz fazer feito pode podem deve devem tem têm há assim então""".split()
    ),
    "uz": frozenset(
        """va yoki ham hamda bilan uchun esa emas bu shu u ular uning ularning unga ularni
        uni bunda shunda bir biri har qaysi qanday nima nimani kim kabi yaʼni lekin ammo balki
        faqat eng juda ancha boʻyicha orqali sifatida oʻrniga gacha qadar keyin oldin soʻng
        kerak mumkin boʻladi boʻlgan boʻlib boʻlsa boʻlganda edi ekan hech barcha hamma oʻz
        oʻzi shuning sababli chunki agar yana endi hali allaqachon taxminan ta dan da ga ni
        ning siz sizning bor yoʻq qilib qiladi qilinadi etadi esa koʻra nisbatan qaraganda
        birga""".split()
    ),
}
"""Function words, not counted as words of a text by :func:`leaks` and ``option-in-stem``
(Greek ones written without accents, as :func:`_fold` leaves them; Persian ones as the parts
that a zero-width non-joiner separates: "می", "ها" of "می‌شود", "گرادیان‌ها")."""


_WORD = re.compile(r"\d+(?:[.,\u066b\u066c]\d+)+|[\w\u0900-\u0963\u0966-\u097f]+|[,;:]")
"""A word (Devanagari signs included, the danda not), a decimal number, or a clause mark."""


_NAME = re.compile(r"^[^\W\d_]+[A-Z][\w]*$")  # ZeRO, NVMe, DeepSpeed: a capital after the first


STEM = 5
"""Words are compared by their first 5 letters (after folding): a crude stemmer that is the same
in every language, so "stage"/"stages", "παραλληλισμός"/"παραλληλισμού" and "लेयर"/"लेयरों"
match."""


@functools.lru_cache(maxsize=8192)
def _fold(text: str) -> str:
    """Case-fold and drop Greek accents and diaeresis (not Devanagari signs, which are letters)."""
    decomposed = unicodedata.normalize("NFD", text.casefold())
    return unicodedata.normalize(
        "NFC", "".join(c for c in decomposed if c not in "\u0301\u0308\u0344\u0342")
    )


@functools.cache
def _stopwords(language: str) -> frozenset[str]:
    """:data:`STOPWORDS` of ``language`` folded as words are (:func:`_fold`: case folding
    makes a Greek final sigma σ, so "όπως" is compared as "οπωσ")."""
    return frozenset(_fold(word) for word in STOPWORDS.get(language, ()))


def tokens(text: str, language: str) -> list[tuple[str, bool, int]]:
    """The words of ``text`` that carry meaning, stemmed (:data:`STEM`), each with whether it
    is a name (a capital after the first letter: ZeRO, NVMe) and its position: words count 1,
    and a comma, semicolon or colon between two words 2 more (a clause apart is farther)."""
    return list(_tokens(text, language))


@functools.lru_cache(maxsize=4096)
def _tokens(text: str, language: str) -> tuple[tuple[str, bool, int], ...]:
    """:func:`tokens`, computed once per text: :func:`leaks` compares every question with every
    other, so each text is read once per pair otherwise (quadratic in a 200-question quiz)."""
    found = []
    position = 0
    for match in _WORD.finditer(text):
        word = match[0]
        if word in ",;:":
            position += 2
            continue
        folded = _fold(word)
        if folded in _stopwords(language) or folded in _stopwords("en"):
            continue
        if language == "en" and len(folded) > 3 and folded.endswith("s"):
            folded = folded[:-1]
        position += 1
        found.append(
            (folded if folded[0].isdigit() else folded[:STEM], bool(_NAME.match(word)), position)
        )
    return tuple(found)


def words(text: str, language: str) -> list[str]:
    """The stemmed words of ``text`` that carry meaning (:func:`tokens`, word only)."""
    return list(_words(text, language))


@functools.lru_cache(maxsize=4096)
def _words(text: str, language: str) -> tuple[str, ...]:
    return tuple(word for word, _, _ in _tokens(text, language))


def _sentences(text: str) -> list[str]:
    return [s for s in re.split(r"(?<=[.!?;।·])\s+", text) if s.strip()]


def _option(question: Question, language: str, index: int) -> str:
    return question.options[index].text.by_language[language]
