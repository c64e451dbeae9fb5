"""Uzbek (Latin script) (uz): the words quizbot reads and checks in Uzbek texts.

One field per use (:class:`~bot.kernel.languages.Language`); plain data."""

from __future__ import annotations

from bot.kernel.languages._shape import LATIN, Language, Numbered, Sheet

LANGUAGE = Language(
    code="uz",
    stopwords=frozenset(
        """va yoki ham hamda bilan uchun esa emas bu shu u ular uning ularning unga ularni
        uni bunda shunda bir biri har qaysi qanday nima nimani kim kabi yaʼni lekin ammo balki
        faqat eng juda ancha boʻyicha orqali sifatida oʻrniga gacha qadar keyin oldin soʻng
        kerak mumkin boʻladi boʻlgan boʻlib boʻlsa boʻlganda edi ekan hech barcha hamma oʻz
        oʻzi shuning sababli chunki agar yana endi hali allaqachon taxminan ta dan da ga ni
        ning siz sizning bor yoʻq qilib qiladi qilinadi etadi esa koʻra nisbatan qaraganda
        birga""".split()
    ),
    above_phrases=(
        r"\byuqoridagi(?:lar)?(?:ning)? (?:hammasi|barchasi|har ikkisi|ikkalasi)\b",
        r"\byuqoridagi(?:lar)?(?:ning)? (?:hech biri|hech qaysisi)\b",
        r"\b(?:hamma|barcha) (?:javoblar|variantlar) (?:toʻgʻri|to‘g‘ri|to'g'ri)\b",
    ),
    true_words=("Toʻgʻri", "To‘g‘ri", "To'g'ri"),
    false_words=("Notoʻgʻri", "Noto‘g‘ri", "Noto'g'ri"),
    count_words=("tadan",),
    sheet=Sheet(
        question=("Savol",),
        answer=("Javob", "Toʻgʻri javob"),
        explanation=("Izoh", "Tushuntirish"),
        picture=("Rasm", "Surat", "Tasvir"),
        kind=("Turi", "Tur", "Savol turi"),
        option=("Variant",),
        true=("Toʻgʻri", "Rost"),
        false=("Notoʻgʻri", "Yolgʻon"),
        choice=("test", "tanlov"),
        true_false=("toʻgʻri-notoʻgʻri", "toʻgʻri/notoʻgʻri"),
        source=("Manba",),
        link=("Manba havolasi", "Havola"),
        shuffle=("Aralashtirish",),
        marks=("Ball", "Ballar"),
        waive=("Istisnolar",),
        settings=("Sozlamalar",),
        title=("Sarlavha", "Nomi"),
        description=("Tavsif",),
        language=("Til",),
        level=("Daraja", "Qiyinlik"),
        minutes=("Daqiqa", "Vaqt"),
        penalty=("Jarima",),
        draw=("Urinishdagi savollar",),
        guide=("Qoʻllanma",),
        guide_label=("Qoʻllanma yorligʻi",),
    ),
    numbered=Numbered(
        answer=("Javob", "Toʻgʻri javob", "To‘g‘ri javob", "To'g'ri javob", "Жавоб"),
        explanation=("Izoh", "Tushuntirish", "Изоҳ"),
        letters=LATIN,
        and_words=("va",),
    ),
)
