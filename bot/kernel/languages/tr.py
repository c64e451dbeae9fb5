"""Turkish (tr): the words quizbot reads and checks in Turkish texts.

One field per use (:class:`~bot.kernel.languages.Language`); plain data."""

from __future__ import annotations

from bot.kernel.languages._shape import LATIN, Language, Numbered, Sheet

LANGUAGE = Language(
    code="tr",
    stopwords=frozenset(
        """ve veya ya da de ile ki bir bu şu o bunlar şunlar onlar bunu bunun buna bunda
        bundan bunları onu onun ona onda ondan onları için gibi kadar daha en çok az her hangi
        hangisi ne neyi nasıl neden mi mı mu mü değil ise ama fakat ancak yani olarak olan olur
        olduğu olması yalnızca sadece tüm bütün diğer başka aynı kendi yerine göre arasında
        üzerinde içinde sonra önce bile hem hiç bazı biri birlikte böylece çünkü eğer değildir
        dır dir dur dür tır tir tur tür ın in un ün nın nin nun nün ı i u ü a e ya ye yı yi yu
        yü ta te dan den tan ten lar ler ları leri lara lere larda lerde ların lerin""".split()
    ),
    above_phrases=(
        r"\byukarıdaki(?:ler)?(?:in|den)? (?:hepsi|tümü|hiçbiri)\b",
        r"\b(?:hepsi|tümü|hiçbiri) doğru\b",
        r"^(?:hepsi|tümü|hiçbiri)$",
    ),
    true_words=("Doğru", "Dogru"),
    false_words=("Yanlış", "YANLIŞ", "Yanlis"),
    count_words=("üzerinden",),
    sheet=Sheet(
        question=("Soru",),
        answer=("Cevap", "Yanıt", "Doğru cevap"),
        explanation=("Açıklama",),
        picture=("Resim", "Görsel", "Fotoğraf"),
        kind=("Tür", "Tip"),
        option=("Seçenek", "Şık"),
        true=("Doğru", "D", "Dogru"),
        false=("Yanlış", "Y", "Yanlis"),
        choice=("çoktan seçmeli", "seçmeli"),
        true_false=("doğru-yanlış", "doğru/yanlış"),
        source=("Kaynak",),
        link=("Kaynak bağlantısı", "Bağlantı"),
        shuffle=("Karıştır", "Seçenekleri karıştır"),
        marks=("Puan",),
        waive=("Muafiyetler",),
        settings=("Ayarlar",),
        title=("Başlık", "Test adı"),
        description=("Tanım", "Açıklama"),
        language=("Dil",),
        level=("Düzey", "Seviye", "Zorluk"),
        minutes=("Dakika", "Süre"),
        penalty=("Ceza",),
        draw=("Deneme başına soru", "Çekiliş"),
        guide=("Kılavuz",),
        guide_label=("Kılavuz etiketi",),
    ),
    numbered=Numbered(
        answer=("Cevap", "Doğru cevap", "Yanıt", "Cevap anahtarı"),
        explanation=("Açıklama", "Aciklama"),
        letters=LATIN,
        and_words=("ve",),
    ),
)
