"""Hindi (hi): the words quizbot reads and checks in Hindi texts.

One field per use (:class:`~bot.kernel.languages.Language`); plain data."""

from __future__ import annotations

from bot.kernel.languages._shape import Language, Numbered, Sheet

LANGUAGE = Language(
    code="hi",
    stopwords=frozenset(
        """का के की को में से पर है हैं था थे थी और या भी तो ही एक यह वह ये वे इस उस इन
        उन जो कि लिए साथ तक नहीं न कर करके करता करती करते किया किए गया गए होता होती होते हो
        कैसे क्या कौन सा सी किस किसी हर सब सभी अपने अपनी अपना बीच द्वारा जैसे जैसा बजाय करना
        इसलिए वाला वाले वाली रूप जाता जाती जाते जाना रहा रही रहे रहता रहती सकता सकती सकते
        होना होने""".split()
    ),
    above_phrases=(
        r"उपरोक्त सभी",
        r"उपर्युक्त सभी",
        r"ऊपर के सभी",
        r"ऊपर दिए गए सभी",
        r"इनमें से सभी",
        r"उपरोक्त में से कोई (?:भी )?नहीं",
        r"उपर्युक्त में से कोई (?:भी )?नहीं",
        r"इनमें से कोई (?:भी )?नहीं",
        r"ऊपर (?:दिए गए |के )?में से कोई (?:भी )?नहीं",
    ),
    true_words=("सही",),
    false_words=("गलत", "ग़लत"),
    count_words=("में", "से"),
    sheet=Sheet(
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
        source=("स्रोत",),
        link=("स्रोत लिंक", "लिंक"),
        shuffle=("फेरबदल", "विकल्प फेरबदल"),
        marks=("अंक",),
        waive=("छूट",),
        settings=("सेटिंग्स",),
        title=("शीर्षक",),
        description=("विवरण",),
        language=("भाषा",),
        level=("स्तर",),
        minutes=("मिनट",),
        penalty=("ऋणात्मक अंक", "दंड"),
        draw=("हर प्रयास के प्रश्न",),
        guide=("गाइड",),
        guide_label=("गाइड बटन",),
    ),
    numbered=Numbered(
        answer=("उत्तर", "सही उत्तर", "जवाब"),
        explanation=("व्याख्या", "स्पष्टीकरण"),
        letters=("क", "ख", "ग", "घ", "ङ", "च", "छ", "ज", "झ", "ञ", "ट", "ठ"),
        and_words=("और",),
    ),
)
