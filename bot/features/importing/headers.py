"""The words of a quiz sheet (.xlsx), per language: column headers, true/false answers and kinds.

The one table of this vocabulary (:data:`VOCABULARY`, one entry per supported language): a sheet
is read by its header row when the headers say what they are in any of these languages
(:func:`column_of`), and the template is written with the first word of each entry
(:func:`template_headers`). Words are compared case-folded, with spaces collapsed, a trailing
``:`` or ``*`` dropped and the apostrophes Uzbek is typed with made one (:func:`normalized`).

Pure: no files, no Telegram.
"""

from __future__ import annotations

import re
import unicodedata
from dataclasses import dataclass

from bot.kernel.bank import MAX_OPTIONS

LETTERS = "ABCDEFGHIJKL"[:MAX_OPTIONS]
"""The option columns' letters, A to L."""

FIELDS = ("question", "answer", "explanation", "picture", "kind")
"""The columns other than the options, in the documented order (options come after
``question``)."""


@dataclass(frozen=True)
class Words:
    """One language's words for a quiz sheet; the first of each tuple is the template's.

    Attributes:
        question, answer, explanation, picture, kind: Headers of those columns.
        option: The word before an option's letter (``Option A``); a bare letter is an option
            header in every language.
        true, false: A true/false question's answers.
        choice, true_false: The kind column's values.
    """

    question: tuple[str, ...]
    answer: tuple[str, ...]
    explanation: tuple[str, ...]
    picture: tuple[str, ...]
    kind: tuple[str, ...]
    option: tuple[str, ...]
    true: tuple[str, ...]
    false: tuple[str, ...]
    choice: tuple[str, ...]
    true_false: tuple[str, ...]


VOCABULARY: dict[str, Words] = {
    "en": Words(
        question=("Question", "Prompt", "Q"),
        answer=("Answer", "Correct", "Correct answer", "Right answer", "Key"),
        explanation=("Explanation", "Feedback"),
        picture=("Picture", "Image", "Photo"),
        kind=("Kind", "Type"),
        option=("Option", "Choice"),
        true=("True", "T"),
        false=("False", "F"),
        choice=("choice", "multiple choice"),
        true_false=("true-false", "true/false", "true or false"),
    ),
    "hi": Words(
        question=("प्रश्न", "सवाल"),
        answer=("उत्तर", "सही उत्तर", "जवाब"),
        explanation=("व्याख्या", "स्पष्टीकरण"),
        picture=("चित्र", "तस्वीर"),
        kind=("प्रकार",),
        option=("विकल्प",),
        true=("सही", "सत्य"),
        false=("ग़लत", "गलत", "असत्य"),
        choice=("बहुविकल्पी", "विकल्प"),
        true_false=("सही-ग़लत", "सही/ग़लत", "सही/गलत", "सत्य/असत्य"),
    ),
    "el": Words(
        question=("Ερώτηση",),
        answer=("Απάντηση", "Σωστή απάντηση"),
        explanation=("Εξήγηση", "Επεξήγηση"),
        picture=("Εικόνα",),
        kind=("Είδος", "Τύπος"),
        option=("Επιλογή",),
        true=("Σωστό", "Αληθές"),
        false=("Λάθος", "Ψευδές"),
        choice=("πολλαπλής επιλογής", "επιλογή"),
        true_false=("σωστό-λάθος", "σωστό/λάθος"),
    ),
    "ru": Words(
        question=("Вопрос",),
        answer=("Ответ", "Правильный ответ", "Верный ответ"),
        explanation=("Объяснение", "Пояснение"),
        picture=("Картинка", "Изображение", "Фото"),
        kind=("Тип", "Вид"),
        option=("Вариант",),
        true=("Верно", "Правда"),
        false=("Неверно", "Ложь"),
        choice=("выбор", "с выбором ответа"),
        true_false=("верно-неверно", "верно/неверно"),
    ),
    "uk": Words(
        question=("Питання", "Запитання"),
        answer=("Відповідь", "Правильна відповідь"),
        explanation=("Пояснення",),
        picture=("Зображення", "Картинка", "Фото"),
        kind=("Тип", "Вид"),
        option=("Варіант",),
        true=("Правда", "Вірно"),
        false=("Неправда", "Невірно"),
        choice=("вибір", "з вибором відповіді"),
        true_false=("правда-неправда", "правда/неправда"),
    ),
    "es": Words(
        question=("Pregunta",),
        answer=("Respuesta", "Respuesta correcta"),
        explanation=("Explicación",),
        picture=("Imagen", "Foto"),
        kind=("Tipo",),
        option=("Opción",),
        true=("Verdadero", "V"),
        false=("Falso",),
        choice=("opción múltiple", "elección"),
        true_false=("verdadero-falso", "verdadero/falso"),
    ),
    "pt": Words(
        question=("Pergunta", "Questão"),
        answer=("Resposta", "Resposta correta", "Gabarito"),
        explanation=("Explicação",),
        picture=("Imagem", "Foto"),
        kind=("Tipo",),
        option=("Opção", "Alternativa"),
        true=("Verdadeiro",),
        false=("Falso",),
        choice=("múltipla escolha", "escolha"),
        true_false=("verdadeiro-falso", "verdadeiro/falso"),
    ),
    "id": Words(
        question=("Pertanyaan", "Soal"),
        answer=("Jawaban", "Kunci jawaban"),
        explanation=("Penjelasan", "Pembahasan"),
        picture=("Gambar", "Foto"),
        kind=("Jenis", "Tipe"),
        option=("Pilihan", "Opsi"),
        true=("Benar", "B"),
        false=("Salah", "S"),
        choice=("pilihan ganda",),
        true_false=("benar-salah", "benar/salah"),
    ),
    "tr": Words(
        question=("Soru",),
        answer=("Cevap", "Yanıt", "Doğru cevap"),
        explanation=("Açıklama",),
        picture=("Resim", "Görsel", "Fotoğraf"),
        kind=("Tür", "Tip"),
        option=("Seçenek", "Şık"),
        true=("Doğru", "D"),
        false=("Yanlış", "Y"),
        choice=("çoktan seçmeli", "seçmeli"),
        true_false=("doğru-yanlış", "doğru/yanlış"),
    ),
    "uz": Words(
        question=("Savol",),
        answer=("Javob", "Toʻgʻri javob"),
        explanation=("Izoh", "Tushuntirish"),
        picture=("Rasm",),
        kind=("Turi", "Tur"),
        option=("Variant",),
        true=("Toʻgʻri", "Rost"),
        false=("Notoʻgʻri", "Yolgʻon"),
        choice=("test", "tanlov"),
        true_false=("toʻgʻri-notoʻgʻri", "toʻgʻri/notoʻgʻri"),
    ),
    "fa": Words(
        question=("پرسش", "سؤال", "سوال"),
        answer=("پاسخ", "جواب", "پاسخ درست"),
        explanation=("توضیح",),
        picture=("تصویر", "عکس"),
        kind=("نوع",),
        option=("گزینه",),
        true=("درست", "صحیح"),
        false=("نادرست", "غلط"),
        choice=("چندگزینه‌ای", "چند گزینه ای", "چندگزینه ای"),
        true_false=("درست-نادرست", "درست/نادرست"),
    ),
    "ar": Words(
        question=("السؤال", "سؤال"),
        answer=("الإجابة", "الاجابة", "إجابة", "الجواب", "الإجابة الصحيحة"),
        explanation=("الشرح", "شرح", "التفسير"),
        picture=("الصورة", "صورة"),
        kind=("النوع", "نوع"),
        option=("الخيار", "خيار"),
        true=("صح", "صحيح", "صواب"),
        false=("خطأ", "خاطئ"),
        choice=("اختيار من متعدد", "اختيار"),
        true_false=("صح-خطأ", "صح/خطأ", "صح أو خطأ", "صواب وخطأ", "صواب/خطأ"),
    ),
}
"""Each supported language's words (``bot.i18n.SUPPORTED``; a test keeps the two in step)."""

_APOSTROPHES = str.maketrans({"ʻ": "'", "ʼ": "'", "’": "'", "‘": "'", "`": "'"})
_OPTION_HEADER = re.compile(r"^(?:(?P<word>.+?)[\s.:#-]*)?(?P<letter>[a-l]|1[0-2]|[1-9])[.)]?$")


def normalized(word: str) -> str:
    """``word`` as compared: NFC, case-folded, ``ـ`` (tatweel) and marks of direction dropped,
    Uzbek's apostrophes one ``'``, spaces collapsed, a trailing ``:`` or ``*`` dropped."""
    word = unicodedata.normalize("NFC", word).translate(_APOSTROPHES)
    word = "".join(c for c in word if c != "ـ" and unicodedata.category(c) != "Cf")
    return " ".join(word.casefold().split()).rstrip(":*").strip()


def _index() -> tuple[dict[str, str], set[str], set[str], set[str], set[str], set[str]]:
    columns: dict[str, str] = {}
    options: set[str] = set()
    true: set[str] = set()
    false: set[str] = set()
    choice: set[str] = set()
    true_false: set[str] = set()
    for words in VOCABULARY.values():
        for field in FIELDS:
            for word in getattr(words, field):
                columns.setdefault(normalized(word), field)
        options.update(normalized(word) for word in words.option)
        true.update(normalized(word) for word in words.true)
        false.update(normalized(word) for word in words.false)
        choice.update(normalized(word) for word in words.choice)
        true_false.update(normalized(word) for word in words.true_false)
    return columns, options, true, false, choice, true_false


_COLUMNS, _OPTION_WORDS, _TRUE, _FALSE, _CHOICE, _TRUE_FALSE = _index()


_LOOKALIKES = str.maketrans("асвенкαβεηικ", "acbehkabehik")
"""Cyrillic and Greek letters typed for the Latin letters they look like (a Cyrillic А in an
option's header or an answer, case-folded)."""


def letter_of(text: str) -> str | None:
    """The option letter ``text`` names (``B``, ``b)``, ``(C)``, a Cyrillic ``А``), upper case;
    None when it names none of :data:`LETTERS`."""
    word = normalized(text).strip("()[].")
    if len(word) != 1:
        return None
    letter = word.translate(_LOOKALIKES).upper()
    return letter if letter in LETTERS else None


def column_of(header: str) -> str | None:
    """What a header cell names, in any language of :data:`VOCABULARY`: a field of
    :data:`FIELDS`, an option's letter (``A``, ``Option B``, ``Вариант 3``, ``C)``), or None
    when it names nothing known."""
    word = normalized(header)
    if word in _COLUMNS:
        return _COLUMNS[word]
    letter = letter_of(word)
    if letter is not None:
        return letter
    match = _OPTION_HEADER.match(word[:-1] + word[-1:].translate(_LOOKALIKES))
    if match is None or (match["word"] is not None and match["word"] not in _OPTION_WORDS):
        return None
    letter = match["letter"]
    index = int(letter) - 1 if letter.isdigit() else ord(letter) - ord("a")
    return LETTERS[index] if index < len(LETTERS) else None


def truth(value: str) -> bool | None:
    """True or False for a true/false answer in any language (``True``, ``Верно``, ``صح``),
    None when ``value`` is neither."""
    word = normalized(value)
    return True if word in _TRUE else False if word in _FALSE else None


def kind_of(value: str) -> str | None:
    """``choice`` or ``true-false`` for a kind cell in any language; ``""`` for an empty cell;
    None when ``value`` names no kind."""
    word = normalized(value)
    if not word:
        return ""
    return "choice" if word in _CHOICE else "true-false" if word in _TRUE_FALSE else None


def template_headers(language: str) -> dict[str, str]:
    """The template's header for each field and option letter in ``language`` (English for a
    language without words here)."""
    words = VOCABULARY.get(language, VOCABULARY["en"])
    headers = {field: getattr(words, field)[0] for field in FIELDS}
    headers.update({letter: letter for letter in LETTERS})
    return headers


def kind_word(language: str, true_false: bool) -> str:
    """The kind column's word in ``language``."""
    words = VOCABULARY.get(language, VOCABULARY["en"])
    return (words.true_false if true_false else words.choice)[0]


def truth_word(language: str, value: bool) -> str:
    """A true/false answer's word in ``language``."""
    words = VOCABULARY.get(language, VOCABULARY["en"])
    return (words.true if value else words.false)[0]
