"""Spanish (es): the words quizbot reads and checks in Spanish texts.

One field per use (:class:`~bot.kernel.languages.Language`); plain data."""

from __future__ import annotations

from bot.kernel.languages._shape import LATIN, Language, Numbered, Sheet

LANGUAGE = Language(
    code="es",
    stopwords=frozenset(
        """el la los las lo un una unos unas al del de a en con sin por para sobre entre hasta
        desde hacia y e o u ni pero sino no es son era eran fue fueron ser sido está están
        esta este esto estos estas ese esa eso esos esas que qué cual cuál cuales cuáles como
        cómo cuando cuándo donde dónde quien quién se su sus le les lo ya más muy también
        solo cada todo toda todos todas otro otra otros otras mismo misma así aunque mientras
        si porque""".split()
    ),
    above_phrases=(
        r"\b(?:todas|todos) (?:las |los )?(?:opciones |respuestas )?anteriores\b",
        r"\btodo lo anterior\b",
        r"\b(?:ninguna|ninguno) de (?:las |los )?(?:opciones |respuestas )?anteriores\b",
        r"\bnada de lo anterior\b",
        r"\b(?:ambas|ambos) (?:opciones |respuestas )?anteriores\b",
    ),
    true_words=("Verdadero", "Cierto"),
    false_words=("Falso",),
    count_words=("de",),
    sheet=Sheet(
        question=("Pregunta", "Enunciado"),
        answer=("Respuesta", "Respuesta correcta", "Solución", "Solucion"),
        explanation=("Explicación", "Explicacion", "Retroalimentación"),
        picture=("Imagen", "Foto"),
        kind=("Tipo",),
        option=("Opción", "Opcion"),
        true=("Verdadero", "V"),
        false=("Falso",),
        choice=("opción múltiple", "elección"),
        true_false=("verdadero-falso", "verdadero/falso", "verdadero o falso"),
        source=("Fuente",),
        link=("Enlace de la fuente", "Enlace"),
        shuffle=("Mezclar",),
        marks=("Puntos", "Puntuación"),
        waive=("Excepciones",),
        settings=("Ajustes", "Configuración"),
        title=("Título", "Titulo"),
        description=("Descripción", "Descripcion"),
        language=("Idioma",),
        level=("Nivel", "Dificultad"),
        minutes=("Minutos", "Tiempo límite", "Límite de tiempo"),
        penalty=("Penalización",),
        draw=("Preguntas por intento", "Sorteo"),
        guide=("Guía",),
        guide_label=("Texto de la guía",),
    ),
    numbered=Numbered(
        answer=("Respuesta", "Respuesta correcta", "Solución", "Solucion"),
        explanation=("Explicación", "Explicacion"),
        letters=LATIN,
        and_words=("y",),
    ),
)
