"""Persian (fa): the words quizbot reads and checks in Persian texts.

One field per use (:class:`~bot.kernel.languages.Language`); plain data."""

from __future__ import annotations

from bot.kernel.languages._shape import Language, Numbered, Sheet

LANGUAGE = Language(
    code="fa",
    stopwords=frozenset(
        """و در به از که را با بی این آن برای تا یا هم نیز است هست نیست بود
        باشد شد شده شود شوند می نمی ها های ای ی اند ام ایم اید تر ترین هر همه یک چه چگونه
        کدام چرا کجا آیا اما ولی اگر پس چون روی زیر بر نه یعنی همان همین خود او ما شما
        کند کنند کرد کرده کردن دارد دارند داشت باید تواند بین میان جای وقتی چیزی فقط
        سازی""".split()
    ),
    above_phrases=(
        r"\bهمه(?:\u0654|\u200cی| ی)? ?(?:موارد|گزینه(?:\u200c| )?ها)(?:ی)? ?(?:بالا|فوق|یادشده)\b",
        r"^\s*هیچ(?:\u200c| )?(?:کدام|یک)\s*[.!]?\s*$",
        r"\bهیچ(?:\u200c| )?(?:کدام|یک) از (?:موارد|گزینه(?:\u200c| )?ها)(?!\w)",
    ),
    true_words=("درست", "صحیح"),
    false_words=("نادرست", "غلط"),
    count_words=("از",),
    sheet=Sheet(
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
        source=("منبع",),
        link=("پیوند منبع", "پیوند"),
        shuffle=("بر زدن", "درهم"),
        marks=("نمره", "امتیاز"),
        waive=("استثناها",),
        settings=("تنظیمات",),
        title=("عنوان",),
        description=("شرح", "توضیحات"),
        language=("زبان",),
        level=("سطح",),
        minutes=("دقیقه",),
        penalty=("نمره منفی", "جریمه"),
        draw=("پرسش در هر آزمون",),
        guide=("راهنما",),
        guide_label=("برچسب راهنما",),
    ),
    numbered=Numbered(
        answer=("پاسخ", "جواب", "پاسخ صحیح", "گزینه صحیح"),
        explanation=("توضیح", "توضیحات"),
        letters=("الف", "ب", "ج", "د", "ه", "و", "ز", "ح", "ط", "ی", "ک", "ل"),
        and_words=("و",),
    ),
)
